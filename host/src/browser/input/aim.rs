//! Pointer geometry of a [`TargetCall`]: scrolling a node into view, the
//! centre of its box in the top-level viewport, and whether a click there
//! would hit it (and what covers it if not).

use crate::browser::call::{as_str, TargetCall};
use crate::browser::js;
use crate::browser::types::{Hit, NodeHandle, Point};
use crate::error::{BpError, BpResult, Code};
use chromiumoxide::cdp::browser_protocol::accessibility::GetPartialAxTreeParams;
use chromiumoxide::cdp::browser_protocol::dom::{
    BackendNodeId, GetContentQuadsParams, ScrollIntoViewIfNeededParams,
};
use chromiumoxide::cdp::js_protocol::runtime::RemoteObjectId;
use serde_json::{json, Value};

impl TargetCall {
    pub async fn scroll_into_view(&mut self, handle: NodeHandle) -> BpResult<()> {
        self.check()?;
        let backend = self.backend(handle)?;
        let scroll = ScrollIntoViewIfNeededParams {
            backend_node_id: Some(BackendNodeId::new(backend)),
            ..Default::default()
        };
        self.cmd_for(handle, &scroll).await.map(|_| ())
    }

    pub async fn box_center(&mut self, handle: NodeHandle) -> BpResult<Point> {
        self.check()?;
        let backend = self.backend(handle)?;
        let not_visible = || {
            BpError::new(Code::ActionNotVerified, "the element has no visible box")
                .with_context(json!({"reason": "not_visible"}))
        };
        let quads = GetContentQuadsParams {
            backend_node_id: Some(BackendNodeId::new(backend)),
            ..Default::default()
        };
        let reply = self
            .cmd_for(handle, &quads)
            .await
            .map_err(|_| not_visible())?;
        // Quads are relative to the viewport of the session's root frame;
        // input goes to the top-level viewport.
        let session = self.handle(handle)?.session.clone();
        let offset = self.session_offset(&session).await?;
        for q in &reply.quads {
            let p = q.inner();
            if p.len() != 8 {
                continue;
            }
            let area = ((p[0] * p[3] - p[2] * p[1])
                + (p[2] * p[5] - p[4] * p[3])
                + (p[4] * p[7] - p[6] * p[5])
                + (p[6] * p[1] - p[0] * p[7]))
                .abs()
                / 2.0;
            if area > 1.0 {
                return Ok(Point {
                    x: offset.x + (p[0] + p[2] + p[4] + p[6]) / 4.0,
                    y: offset.y + (p[1] + p[3] + p[5] + p[7]) / 4.0,
                });
            }
        }
        Err(not_visible())
    }

    /// Scroll, measure and hit-test in one page call for a main-frame
    /// node; any other (or a page call that fails) takes the three steps.
    pub async fn aim(&mut self, handle: NodeHandle) -> BpResult<(Point, Hit)> {
        self.check()?;
        self.input.aimed_handle = Some(handle);
        self.input.pointerups_before = None;
        let main_frame = self.in_main_frame(handle);
        if main_frame {
            if let Some((at, pointerups)) = self.take_resolved_aim(handle) {
                self.input.pointerups_before = pointerups;
                // Revalidating the ref found it in view and not covered.
                let hit = Hit {
                    on_target: true,
                    role: String::new(),
                    name: String::new(),
                    part: String::new(),
                };
                return Ok((at, hit));
            }
            let aimed = self.call_on(handle, &js::aim(), json!([]), true).await;
            let v = aimed.as_ref().map(|r| &r["value"]);
            if let Ok(v) = v {
                if let (Some(x), Some(y), Some(covered)) =
                    (v["x"].as_f64(), v["y"].as_f64(), v["covered"].as_bool())
                {
                    let at = Point { x, y };
                    self.input.pointerups_before = v["pointerups"].as_u64();
                    if covered {
                        // Rare: name what covers it (two more calls).
                        let hit = self.hit_test(handle, at).await?;
                        return Ok((at, hit));
                    }
                    let hit = Hit {
                        on_target: true,
                        role: String::new(),
                        name: String::new(),
                        part: v["part"].as_str().unwrap_or_default().to_string(),
                    };
                    return Ok((at, hit));
                }
            }
        }
        self.scroll_into_view(handle).await?;
        let at = self.box_center(handle).await?;
        let hit = self.hit_test(handle, at).await?;
        Ok((at, hit))
    }

    pub async fn hit_test(&mut self, handle: NodeHandle, at: Point) -> BpResult<Hit> {
        self.check()?;
        // The page-side test works in the coordinates of the node's frame.
        let frame = self.handle(handle)?.frame.clone().map(|(f, _)| f);
        let offset = self.frame_offset(frame.as_deref()).await?;
        let (x, y) = (at.x - offset.x, at.y - offset.y);
        let hit = self
            .call_on(
                handle,
                js::HIT_TEST,
                json!([{"value": x}, {"value": y}]),
                false,
            )
            .await?;
        let Some(cover) = hit["objectId"].as_str() else {
            // On the node, or a part of its own control (named by value).
            return Ok(Hit {
                on_target: true,
                role: String::new(),
                name: String::new(),
                part: hit["value"].as_str().unwrap_or_default().to_string(),
            });
        };
        let partial = GetPartialAxTreeParams {
            object_id: Some(RemoteObjectId::new(cover)),
            fetch_relatives: Some(false),
            ..Default::default()
        };
        // Accessibility nodes are read as JSON: their enums drift.
        let ax = self
            .cmd_for_raw(handle, &partial)
            .await
            .unwrap_or(Value::Null);
        let node = ax["nodes"]
            .as_array()
            .and_then(|n| n.first())
            .cloned()
            .unwrap_or(Value::Null);
        Ok(Hit {
            on_target: false,
            role: as_str(&node["role"]["value"]),
            name: as_str(&node["name"]["value"]),
            part: String::new(),
        })
    }
}
