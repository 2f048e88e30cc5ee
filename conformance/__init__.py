"""Browser Pilot adapter conformance kit. See README.md; run `scripts/conformance`."""
