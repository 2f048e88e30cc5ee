//! The host side of the capability interfaces. A target capability's
//! imports reach the call's [`TargetCall`]; a workspace capability's reach
//! only the [`WorkspaceCall`] (which has no tab). Each re-checks lease,
//! generation (and target) in one place before touching the browser.

use super::bindings::artifacts::{self, ArtifactRef, NewArtifact, UploadFile};
use super::bindings::capture::{self, Image, ScreenshotOptions};
use super::bindings::cookies_read::{self, Cookie};
use super::bindings::dialogs::{self, DialogInfo};
use super::bindings::input::{self, Hit, Modifiers, MouseButton, Point};
use super::bindings::navigation::{self, HistoryAction, NavResult};
use super::bindings::network_modify::{self, Rule as WitRule, RuleAction};
use super::bindings::network_read::{self, JournalPage};
use super::bindings::page_read::{
    self, AxSnapshot, FrameInfo, NodeHandle, NodeState, ObservedElement, PageInfo, PageText,
};
use super::bindings::tabs_manage::{self, TabInfo};
use super::bindings::types::{self, ToolError};
use super::bindings::upload::{self, UploadReadback};
use super::bindings::{cookies_write, script};
use super::errors::to_tool_error;
use super::{HostState, Scope};
use crate::browser::call::TargetCall;
use crate::browser::workspace_call::WorkspaceCall;
use crate::error::{BpResult, Code};

type Res<T> = wasmtime::Result<Result<T, ToolError>>;

impl HostState {
    /// The view of a target capability: the call's one tab.
    fn target(&mut self) -> wasmtime::Result<&mut TargetCall> {
        match &mut self.scope {
            Some(Scope::Target(t)) => Ok(t),
            _ => Err(wasmtime::Error::msg("no tab scope for this call")),
        }
    }

    /// The view of a workspace capability: the workspace, and no tab.
    fn workspace(&mut self) -> wasmtime::Result<&mut WorkspaceCall> {
        match &mut self.scope {
            Some(Scope::Target(t)) => Ok(&mut t.ws),
            Some(Scope::Workspace(w)) => Ok(w),
            None => Err(wasmtime::Error::msg("no workspace scope for this call")),
        }
    }
}

/// Map a broker result into the import's typed result. Errors the WIT
/// `tool-error` cannot express faithfully (an unknown outcome, a lapsed
/// lease) end the call as a trap that carries the broker error intact.
fn typed<T>(r: BpResult<T>) -> Res<T> {
    match r {
        Ok(v) => Ok(Ok(v)),
        Err(e) if carried_as_trap(e.code) => Err(wasmtime::Error::new(e)),
        Err(e) => Ok(Err(to_tool_error(e))),
    }
}

fn carried_as_trap(code: Code) -> bool {
    matches!(
        code,
        Code::UnknownOutcome
            | Code::LeaseExpired
            | Code::WorkspaceNotFound
            | Code::CommandExpired
            | Code::CommandCancelled
    )
}

impl types::Host for HostState {}

impl page_read::Host for HostState {
    async fn active_element(&mut self) -> Res<String> {
        typed(self.target()?.active_element().await)
    }

    async fn frames(&mut self) -> Res<Vec<FrameInfo>> {
        typed(self.target()?.list_frames())
    }

    async fn current_page(&mut self) -> Res<PageInfo> {
        typed(self.target()?.current_page().await)
    }

    async fn document_state(&mut self) -> Res<(u64, bool)> {
        typed(self.target()?.document_state())
    }

    async fn accessibility_tree(&mut self, max_depth: u32, max_nodes: u32) -> Res<AxSnapshot> {
        typed(
            self.target()?
                .accessibility_tree(max_depth, max_nodes)
                .await,
        )
    }

    async fn record_observation(&mut self, elements: Vec<ObservedElement>) -> Res<String> {
        typed(self.target()?.record_observation(&elements))
    }

    async fn resolve_ref(&mut self, observation_id: String, r: u32) -> Res<NodeHandle> {
        typed(self.target()?.resolve_ref(&observation_id, r).await)
    }

    async fn read_node(&mut self, node: NodeHandle) -> Res<NodeState> {
        typed(self.target()?.read_node(node).await)
    }

    async fn text(&mut self, node: Option<NodeHandle>, max_chars: u32) -> Res<PageText> {
        typed(self.target()?.text(node, max_chars).await)
    }
}

impl navigation::Host for HostState {
    async fn goto(&mut self, url: String) -> Res<NavResult> {
        typed(self.target()?.goto(&url).await)
    }

    async fn history(&mut self, action: HistoryAction) -> Res<NavResult> {
        typed(self.target()?.history(action).await)
    }

    async fn select_frame(&mut self, frame_id: Option<String>) -> Res<String> {
        typed(self.target()?.select_frame(frame_id.as_deref()))
    }
}

impl capture::Host for HostState {
    async fn screenshot(&mut self, options: ScreenshotOptions) -> Res<Image> {
        typed(self.target()?.screenshot(options.full_page).await)
    }

    async fn pdf(&mut self) -> Res<Vec<u8>> {
        typed(self.target()?.pdf().await)
    }
}

impl artifacts::Host for HostState {
    async fn create(&mut self, artifact: NewArtifact) -> Res<ArtifactRef> {
        typed(self.workspace()?.create_artifact(artifact))
    }

    async fn lookup_upload(&mut self, artifact_id: String) -> Res<UploadFile> {
        typed(self.workspace()?.upload_file(&artifact_id))
    }
}

impl upload::Host for HostState {
    async fn set_files(
        &mut self,
        node: NodeHandle,
        artifact_ids: Vec<String>,
    ) -> Res<UploadReadback> {
        typed(self.target()?.set_files(node, &artifact_ids).await)
    }
}

impl network_read::Host for HostState {
    async fn read_journal(&mut self, only: bool, since: u64, limit: u32) -> Res<JournalPage> {
        typed(self.workspace()?.read_journal(only, since, limit))
    }
}

impl network_modify::Host for HostState {
    async fn add_rule(&mut self, pattern: String, action: RuleAction, only: bool) -> Res<String> {
        typed(self.workspace()?.add_rule(pattern, action, only).await)
    }

    async fn remove_rule(&mut self, rule_id: String) -> Res<()> {
        typed(self.workspace()?.remove_rule(&rule_id))
    }

    async fn list_rules(&mut self) -> Res<Vec<WitRule>> {
        typed(self.workspace()?.list_rules())
    }

    async fn set_auth(&mut self, origin: String, username: String, password: String) -> Res<()> {
        typed(
            self.workspace()?
                .set_auth(&origin, &username, &password)
                .await,
        )
    }

    async fn clear_auth(&mut self, origin: Option<String>) -> Res<u32> {
        typed(self.workspace()?.clear_auth(origin.as_deref()))
    }
}

impl cookies_read::Host for HostState {
    async fn get_cookies(&mut self, urls: Vec<String>) -> Res<Vec<Cookie>> {
        typed(self.target()?.get_cookies(urls).await)
    }
}

impl cookies_write::Host for HostState {
    async fn set_cookies(&mut self, cookies: Vec<Cookie>) -> Res<u32> {
        typed(self.target()?.set_cookies(cookies).await)
    }

    async fn clear_cookies(&mut self) -> Res<u32> {
        typed(self.target()?.clear_cookies().await)
    }
}

impl script::Host for HostState {
    async fn evaluate(&mut self, expression: String) -> Res<String> {
        typed(self.target()?.evaluate(&expression).await)
    }
}

impl dialogs::Host for HostState {
    async fn pending(&mut self, only: bool) -> Res<Vec<DialogInfo>> {
        typed(self.workspace()?.pending_dialogs(only))
    }

    async fn respond(&mut self, id: String, accept: bool, text: Option<String>) -> Res<()> {
        typed(self.workspace()?.respond_dialog(&id, accept, text).await)
    }
}

impl input::Host for HostState {
    async fn scroll_into_view(&mut self, node: NodeHandle) -> Res<()> {
        typed(self.target()?.scroll_into_view(node).await)
    }

    async fn box_center(&mut self, node: NodeHandle) -> Res<Point> {
        typed(self.target()?.box_center(node).await)
    }

    async fn hit_test(&mut self, node: NodeHandle, at: Point) -> Res<Hit> {
        typed(self.target()?.hit_test(node, at).await)
    }

    async fn click(&mut self, at: Point, button: MouseButton, click_count: u32) -> Res<()> {
        typed(self.target()?.click(at, button, click_count).await)
    }

    async fn dom_click(&mut self, node: NodeHandle) -> Res<()> {
        typed(self.target()?.dom_click(node).await)
    }

    async fn focus(&mut self, node: NodeHandle) -> Res<()> {
        typed(self.target()?.focus(node).await)
    }

    async fn insert_text(&mut self, text: String) -> Res<()> {
        typed(self.target()?.insert_text(&text).await)
    }

    async fn press_key(&mut self, key: String, held: Modifiers) -> Res<()> {
        typed(self.target()?.press_key(&key, held).await)
    }
}

impl tabs_manage::Host for HostState {
    async fn open(&mut self, url: Option<String>) -> Res<TabInfo> {
        let tabs = self.workspace()?.tabs();
        typed(tabs.open(url).await.map(|t| TabInfo {
            target_id: t.target_id,
            url: t.url,
            title: t.title,
            status: t.status,
            origin: t.origin,
        }))
    }

    async fn close(&mut self, target_id: String) -> Res<Vec<String>> {
        let tabs = self.workspace()?.tabs();
        typed(tabs.close(target_id).await)
    }

    async fn close_managed(&mut self) -> Res<Vec<String>> {
        let tabs = self.workspace()?.tabs();
        typed(tabs.close_managed().await)
    }
}
