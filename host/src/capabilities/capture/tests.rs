//! Unit tests of `capture`'s pure logic: reading the browser's data and a
//! PNG's size.

use super::shot::{decode, png_size, shot_params};
use crate::error::Code;
use serde_json::json;

/// The first 24 bytes of a PNG: signature, IHDR length and type, width,
/// height.
fn png_head(width: u32, height: u32) -> Vec<u8> {
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    png.extend_from_slice(&width.to_be_bytes());
    png.extend_from_slice(&height.to_be_bytes());
    png
}

#[test]
fn a_png_gives_its_size_from_its_header() {
    assert_eq!(png_size(&png_head(1280, 7200)).ok(), Some((1280, 7200)));
}

#[test]
fn what_is_not_a_png_is_an_internal_error() {
    let mut jpeg = png_head(1, 1);
    jpeg[1] = b'J';
    for bad in [jpeg, png_head(1, 1)[..20].to_vec(), Vec::new()] {
        let err = png_size(&bad).err().map(|e| e.code);
        assert_eq!(err, Some(Code::InternalError));
    }
}

#[test]
fn base64_data_is_decoded_and_garbage_refused() {
    assert_eq!(decode("aGk=").ok(), Some(b"hi".to_vec()));
    assert_eq!(
        decode("not base64!").err().map(|e| e.code),
        Some(Code::InternalError)
    );
}

#[test]
fn the_screenshot_goes_out_as_the_string_call_sent_it() {
    let sent = |content| serde_json::to_value(shot_params(content)).ok();
    assert_eq!(sent(None), Some(json!({"format": "png"})));
    assert_eq!(
        sent(Some((1280.0, 90_000.0))),
        Some(json!({"format": "png", "captureBeyondViewport": true,
                    "clip": {"x": 0.0, "y": 0.0, "width": 1280.0, "height": 16_384.0, "scale": 1.0}}))
    );
}
