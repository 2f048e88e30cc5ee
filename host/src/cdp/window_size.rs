//! The size, in CSS pixels, of the page area of a broker-launched
//! browser's windows.

use crate::error::{BpError, BpResult};
use serde_json::Value;

/// The largest width or height accepted.
pub const MAX_SIDE: u32 = 10_000;

/// A window's page area in CSS pixels: what `innerWidth` and
/// `innerHeight` report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WindowSize {
    pub width: u32,
    pub height: u32,
}

impl Default for WindowSize {
    /// A desktop size: sites serve their desktop layout at it.
    fn default() -> Self {
        Self {
            width: 1280,
            height: 800,
        }
    }
}

impl WindowSize {
    /// A size with both sides in 1..=[`MAX_SIDE`].
    pub fn new(width: u64, height: u64) -> BpResult<Self> {
        let side = |name: &str, v: u64| {
            u32::try_from(v)
                .ok()
                .filter(|v| (1..=MAX_SIDE).contains(v))
                .ok_or_else(|| {
                    BpError::invalid(format!(
                        "the window {name} must be 1 to {MAX_SIDE} pixels, not {v}"
                    ))
                })
        };
        Ok(Self {
            width: side("width", width)?,
            height: side("height", height)?,
        })
    }

    /// `{"width": W, "height": H}`, both whole numbers in range.
    pub fn from_json(v: &Value) -> BpResult<Self> {
        let bad = || BpError::invalid("`windowSize` must be {\"width\": W, \"height\": H}");
        let obj = v.as_object().ok_or_else(bad)?;
        if obj.keys().any(|k| k != "width" && k != "height") {
            return Err(bad());
        }
        let side = |k: &str| obj.get(k).and_then(Value::as_u64).ok_or_else(bad);
        Self::new(side("width")?, side("height")?)
    }

    /// `W,H` (or `WxH`), as `--window-size` takes it.
    pub fn parse(text: &str) -> BpResult<Self> {
        let bad = || {
            BpError::invalid(format!(
                "window size `{text}` is not WIDTH,HEIGHT (for example 1280,800)"
            ))
        };
        let (w, h) = text
            .split_once(',')
            .or_else(|| text.split_once('x'))
            .ok_or_else(bad)?;
        let num = |s: &str| s.trim().parse::<u64>().map_err(|_| bad());
        Self::new(num(w)?, num(h)?)
    }

    /// The `--window-size` switch (the whole window; the page area is set
    /// exactly once a window exists, see `BrowserConn::create_tab`).
    pub fn switch(&self) -> String {
        format!("--window-size={},{}", self.width, self.height)
    }
}

#[cfg(test)]
mod tests {
    use super::WindowSize;
    use serde_json::json;

    #[test]
    fn sizes_in_range_parse_and_others_are_invalid() {
        let ok = WindowSize::parse("1024,768").unwrap();
        assert_eq!((ok.width, ok.height), (1024, 768));
        assert_eq!(WindowSize::parse("800x600").unwrap().height, 600);
        for bad in [
            "0,800",
            "1280,0",
            "10001,800",
            "100000,100000",
            "1280",
            "a,b",
            "-1,5",
            "",
        ] {
            let e = WindowSize::parse(bad).unwrap_err();
            assert_eq!(e.code.as_str(), "invalid_argument", "{bad}");
        }
        let j = WindowSize::from_json(&json!({"width": 640, "height": 480})).unwrap();
        assert_eq!((j.width, j.height), (640, 480));
        for bad in [
            json!("1280,800"),
            json!({"width": 640}),
            json!({"width": 0, "height": 1}),
            json!({"width": 1.5, "height": 2}),
            json!({"width": 1, "height": 2, "x": 3}),
        ] {
            assert!(WindowSize::from_json(&bad).is_err(), "{bad}");
        }
        assert_eq!(WindowSize::default().switch(), "--window-size=1280,800");
    }
}
