"""Screenshot artifacts as native image content.

Binary data never crosses the bridge: a screenshot result carries artifact
descriptors whose `path` names a local, owner-only file. The adapter reads
that file itself (the bounded `preview` when there is one) and checks it
against the descriptor before turning it into an image block.
"""
import base64
from dataclasses import dataclass

SIGNATURES = {"image/png": b"\x89PNG\r\n\x1a\n", "image/jpeg": b"\xff\xd8\xff"}


@dataclass(frozen=True)
class Image:
    mime: str
    data: bytes
    width: int
    height: int
    artifact_id: str
    kind: str  # "screenshot" or "preview"

    def base64(self):
        return base64.b64encode(self.data).decode("ascii")

    def block(self):
        """A multimodal-model image block (Anthropic Messages API shape)."""
        return {"type": "image", "source": {"type": "base64", "media_type": self.mime,
                                            "data": self.base64()}}


class ArtifactError(ValueError):
    pass


def pick_descriptor(result, prefer_preview=True):
    """The descriptor to show a model: the preview (longest edge <= 1280 px)
    when present and preferred, else the full artifact."""
    if not isinstance(result, dict) or not isinstance(result.get("artifact"), dict):
        raise ArtifactError("result has no artifact descriptor")
    if prefer_preview and isinstance(result.get("preview"), dict):
        return result["preview"]
    return result["artifact"]


def read_image(descriptor):
    """Read and verify the file a descriptor names; returns an Image."""
    mime = descriptor.get("mime")
    if mime not in SIGNATURES:
        raise ArtifactError(f"artifact {descriptor.get('artifactId')} is {mime}, not an image")
    with open(descriptor["path"], "rb") as f:
        data = f.read()
    if len(data) != descriptor.get("bytes"):
        raise ArtifactError(f"artifact file has {len(data)} bytes, descriptor says {descriptor.get('bytes')}")
    if not data.startswith(SIGNATURES[mime]):
        raise ArtifactError(f"artifact file is not a {mime} file")
    return Image(mime=mime, data=data, width=descriptor.get("width") or 0,
                 height=descriptor.get("height") or 0,
                 artifact_id=descriptor.get("artifactId", ""), kind=descriptor.get("kind", ""))


def image_from_result(result, prefer_preview=True):
    return read_image(pick_descriptor(result, prefer_preview))
