//! The domain types of the browser operations: what a [`TargetCall`] or a
//! [`WorkspaceCall`] takes and returns. They mirror the records of the
//! capability interfaces but do not depend on the generated bindings; the
//! capability folders convert at their edge (each `capabilities/<cap>/convert.rs`).
//!
//! [`TargetCall`]: crate::browser::call::TargetCall
//! [`WorkspaceCall`]: crate::browser::workspace::WorkspaceCall

/// A node found in this call, as an index into the call's handles.
pub type NodeHandle = u32;

// ---- page reading ----------------------------------------------------------

/// The page a target shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageInfo {
    pub url: String,
    pub title: String,
    pub document_generation: u64,
    pub dialog_open: bool,
}

/// One node of an accessibility snapshot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AxNode {
    pub handle: Option<NodeHandle>,
    pub role: String,
    pub name: String,
    /// `None` for a protected (password-like) value.
    pub value: Option<String>,
    pub checked: Option<String>,
    pub disabled: bool,
    pub protected: bool,
    pub depth: u32,
    pub expanded: Option<bool>,
    pub focused: bool,
    /// The states and facts an observation shows where they apply.
    pub facts: NodeFacts,
}

/// What an observation says of an element beyond role, name and value,
/// each only where it applies (`observe/walk_facts.rs`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NodeFacts {
    /// `aria-selected` (a tab, an option, a row).
    pub selected: Option<bool>,
    /// `aria-pressed`: `true`, `false` or `mixed` for a toggle button.
    pub pressed: Option<String>,
    pub required: bool,
    pub invalid: bool,
    /// A heading's (or tree item's) level.
    pub level: Option<u32>,
    /// A link's target, bounded.
    pub href: Option<String>,
    /// A `<select>`'s first option labels, and how many more it has.
    pub options: Vec<String>,
    pub more_options: u32,
    /// An element whose content scrolls (overflow auto or scroll).
    pub scrollable: bool,
}

/// The accessibility tree of the selected frame, child frames spliced in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AxSnapshot {
    pub info: PageInfo,
    pub nodes: Vec<AxNode>,
    pub depth_limited: bool,
    pub node_limited: bool,
}

/// One element of an observation: ref `reference` names `handle`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ObservedElement {
    pub reference: u32,
    pub handle: NodeHandle,
}

/// What a page-side read of one node found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeState {
    pub tag: String,
    pub input_type: Option<String>,
    pub value: Option<String>,
    pub value_length: u32,
    pub checked: Option<bool>,
    pub focused: bool,
    pub editable: bool,
    pub connected: bool,
}

/// The visible text of a page or node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageText {
    pub text: String,
    pub truncated: bool,
    /// Text left out (or, when asked for, kept) because a person cannot
    /// see it: reason and count.
    pub hidden: Vec<(String, u32)>,
}

/// One frame of a target, by its public ID.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrameInfo {
    pub frame_id: String,
    pub url: String,
    pub name: Option<String>,
    pub parent_frame_id: Option<String>,
    pub selected: bool,
}

// ---- navigation ------------------------------------------------------------

/// Where a navigation ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NavResult {
    pub url: String,
    pub title: String,
    pub status: Option<u16>,
}

/// A move through the session history.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HistoryAction {
    Back,
    Forward,
    Reload,
}

// ---- input -----------------------------------------------------------------

/// A point in the top-level viewport, in CSS pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

/// What a hit test at a point found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    pub on_target: bool,
    /// Role and name of the covering element (empty when on target).
    pub role: String,
    pub name: String,
    /// `own_label` or `own_part` when the point lands on another part of
    /// the node's own control (then `on_target`); empty otherwise.
    pub part: String,
}

/// A mouse button.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MouseButton {
    Left,
    Middle,
    Right,
}

/// Modifier keys held during a key press.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Modifiers {
    pub alt: bool,
    pub ctrl: bool,
    pub meta: bool,
    pub shift: bool,
}

/// What an action waits for once its input is sent (`input/settle_after.rs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SettleMode {
    None,
    Dom,
    Network,
}

/// How settling after an action ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SettleReport {
    /// The requests the action started finished and the DOM went quiet.
    pub settled: bool,
    /// Requests the action started that are still unfinished.
    pub requests: u32,
    pub waited_ms: u32,
}

impl SettleReport {
    pub fn settled(waited_ms: u32) -> Self {
        Self {
            settled: true,
            requests: 0,
            waited_ms,
        }
    }
}

/// The element found at a point of the viewport (bounded page data).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ElementAt {
    pub role: String,
    pub name: String,
    pub tag: String,
}

// ---- capture, upload and artifacts ----------------------------------------

/// A PNG screenshot and its size in pixels.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    pub png: Vec<u8>,
    pub width: u32,
    pub height: u32,
}

/// What a file input holds after files were set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UploadReadback {
    pub file_count: u32,
    pub names: Vec<String>,
}

/// The kind of an artifact a tool creates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArtifactKind {
    Screenshot,
    Preview,
    Pdf,
}

impl ArtifactKind {
    /// The kind's name in the artifact store.
    pub fn as_str(self) -> &'static str {
        match self {
            ArtifactKind::Screenshot => "screenshot",
            ArtifactKind::Preview => "preview",
            ArtifactKind::Pdf => "pdf",
        }
    }
}

/// An artifact a tool asks to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewArtifact {
    pub kind: ArtifactKind,
    pub mime: String,
    pub data: Vec<u8>,
    pub width: Option<u32>,
    pub height: Option<u32>,
    pub preview_of: Option<String>,
}

/// A stored artifact.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArtifactRef {
    pub artifact_id: String,
    pub bytes: u64,
}

/// A user file available for upload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UploadFile {
    pub artifact_id: String,
    pub filename: String,
    pub bytes: u64,
}

// ---- cookies ---------------------------------------------------------------

/// A browser cookie.
#[derive(Debug, Clone, PartialEq)]
pub struct Cookie {
    pub name: String,
    pub value: String,
    /// Empty: the current page's URL decides.
    pub domain: String,
    pub path: String,
    /// Seconds since the epoch; `None`: a session cookie.
    pub expires: Option<f64>,
    pub http_only: bool,
    pub secure: bool,
    pub same_site: Option<String>,
}

// ---- network ---------------------------------------------------------------

/// One HTTP header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    pub name: String,
    pub value: String,
}

/// The response a mock rule answers with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MockResponse {
    pub status: u16,
    pub headers: Vec<Header>,
    pub body: String,
}

/// What a request rule does to a matching request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RuleAction {
    Block,
    Mock(MockResponse),
    Headers(Vec<Header>),
}

/// A request rule of the workspace, as its tools see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    pub rule_id: String,
    pub pattern: String,
    pub action: RuleAction,
    /// The tab it is limited to (`None`: every controlled tab).
    pub target_id: Option<String>,
}

/// One request of the workspace's journal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestEntry {
    pub seq: u64,
    pub target_id: String,
    pub url: String,
    pub method: String,
    pub status: Option<u16>,
    pub resource_type: String,
    pub outcome: String,
    pub rule_id: Option<String>,
}

/// A page of the request journal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JournalPage {
    pub requests: Vec<RequestEntry>,
    pub next_seq: u64,
}

// ---- dialogs ---------------------------------------------------------------

/// A pending JavaScript dialog on a controlled tab.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DialogInfo {
    pub dialog_id: String,
    pub target_id: String,
    pub kind: String,
    pub message: String,
    pub default_prompt: Option<String>,
    /// When it opened, in milliseconds since the epoch.
    pub opened_at: u64,
}
