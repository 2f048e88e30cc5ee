//! Command-line arguments.

use browser_pilot_host::runtime::capability::Capability;
use clap::{Parser, Subcommand};

/// `--deny`'s help: the capability names come from the registry.
fn deny_help() -> String {
    format!(
        "Deny a capability interface (its tools vanish); repeatable. Known: {}",
        Capability::ALL.map(Capability::name).join(", ")
    )
}
use std::path::PathBuf;

/// `bp wait`: one condition and its bounds.
#[derive(Debug, clap::Args)]
pub struct WaitArgs {
    /// Text that should appear on the page.
    #[arg(long, value_name = "TEXT")]
    pub text: Option<String>,
    /// Text that should no longer be on the page.
    #[arg(long, value_name = "TEXT")]
    pub gone: Option<String>,
    /// The element (a ref from `bp snapshot`) whose --state is waited for.
    #[arg(long = "ref", value_name = "REF", requires = "state")]
    pub reference: Option<String>,
    /// The state the element should reach.
    #[arg(long, value_parser = ["visible", "hidden", "enabled", "detached"], requires = "reference")]
    pub state: Option<String>,
    /// A glob the URL should match (`*` any run, `?` one character).
    #[arg(long, value_name = "GLOB")]
    pub url: Option<String>,
    /// An element (ref) whose text should stop changing, as a streamed reply settles.
    #[arg(long, value_name = "REF")]
    pub stable: Option<String>,
    /// How long the text must stay the same for --stable (default 500).
    #[arg(long, value_name = "MS", requires = "stable")]
    pub quiet: Option<u32>,
    /// The most to wait, in milliseconds (default 5000, at most 30000).
    #[arg(long, value_name = "MS")]
    pub timeout: Option<u32>,
}

/// Let local agents drive a real Chromium through a per-user broker.
#[derive(Parser)]
#[command(
    name = "browser-pilot",
    about,
    disable_version_flag = true,
    disable_help_subcommand = true,
    arg_required_else_help = true
)]
pub struct Cli {
    /// Print the tool's typed result as JSON instead of text.
    #[arg(long, global = true)]
    pub json: bool,
    /// Print the version (with --json: protocol range, WIT package,
    /// component hashes and build profile).
    #[arg(short = 'V', long)]
    pub version: bool,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand)]
pub enum Command {
    /// Connect the broker to a browser: with no flags, the one running
    /// browser that has remote debugging on (see `bp browsers`).
    Connect {
        /// Launch a broker-owned Chromium with a temporary profile.
        #[arg(long)]
        launch: bool,
        /// With --launch: run it headless.
        #[arg(long)]
        headless: bool,
        /// With --launch: the browser executable (default: found on PATH).
        #[arg(long)]
        executable: Option<PathBuf>,
        /// With --launch: the page area of its windows in CSS pixels,
        /// WIDTH,HEIGHT (default 1280,800).
        #[arg(long, value_name = "W,H")]
        window_size: Option<String>,
        /// With --launch: a persistent profile of the agent's own, kept
        /// between launches (sign in once). No value or `default`: the
        /// one in BROWSER_PILOT_HOME/profiles/default; else an absolute DIR.
        #[arg(long, value_name = "DIR", num_args = 0..=1, default_missing_value = "default")]
        profile: Option<String>,
        /// A DevTools endpoint on loopback (http://127.0.0.1:9222 or ws://...).
        #[arg(long, conflicts_with_all = ["launch", "headless", "executable", "window_size", "profile"])]
        endpoint: Option<String>,
        /// A browser ID from `bp browsers`; remembered as the preference.
        #[arg(long, conflicts_with_all = ["launch", "headless", "executable", "window_size", "profile", "endpoint"])]
        browser: Option<String>,
        /// Keep this CLI's tabs on these origins only (http://127.0.0.1:8123,
        /// https://*.example.com); repeatable; within the broker's own list.
        #[arg(long = "allowed-origin", value_name = "ORIGIN")]
        allowed_origins: Vec<String>,
    },
    /// Release this CLI's workspace and close its tabs; the browser
    /// connection ends too unless other clients still hold live leases.
    Disconnect {
        /// End the connection even while other clients use it.
        #[arg(long)]
        force: bool,
    },
    /// Chromium-family browsers of this user, running or installed, with
    /// their remote-debugging state (never connects to any of them).
    Browsers,
    /// Read-only readiness report: browsers, broker, components, cache.
    Doctor,
    /// Help on a command, or on a topic: `bp help agents` prints the guide
    /// for LLM agents driving the CLI.
    Help { topic: Option<String> },
    /// Print shell completions for bash, zsh or fish.
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff).
    Man,
    /// Internal: the janitor child process of a broker.
    #[command(hide = true)]
    Janitor,
    /// Internal: one step of `bench`'s one-shot CDP floor (a process per
    /// step, raw CDP to the bench's own browser, no broker).
    #[command(hide = true)]
    BenchFloor {
        ws_url: String,
        target: String,
        step: String,
        arg: Option<String>,
    },
    /// Load a URL in the current tab (opening a managed tab if needed).
    Open { url: String },
    /// Go back one page in the current tab's history, and wait for it to load.
    Back,
    /// Go forward one page in the current tab's history, and wait for it to load.
    Forward,
    /// Reload the current tab, and wait for it to load.
    Reload,
    /// Observe the current tab: numbered interactive elements.
    Snapshot {
        /// Most elements to return (1..10000).
        #[arg(long)]
        limit: Option<u32>,
        /// Keep only elements whose role, name or value contains this
        /// (case-insensitive).
        #[arg(long, value_name = "TEXT")]
        query: Option<String>,
    },
    /// Click an element by its ref from the latest snapshot, once it is
    /// visible, stable and enabled (--wait-ms), or a point of the viewport
    /// (--at X,Y); then wait for what the click started (--settle).
    Click(crate::click_command::ClickArgs),
    /// Type text into an element by ref.
    Type {
        #[arg(value_name = "REF")]
        reference: String,
        text: String,
        /// Clear the field first.
        #[arg(long)]
        clear: bool,
        /// Press Enter afterwards.
        #[arg(long)]
        submit: bool,
        /// How long to wait for the field to be ready (0..10000 ms).
        #[arg(long, value_name = "MS")]
        wait_ms: Option<u32>,
        /// What to wait for after typing: none, dom or network (default).
        #[arg(long, value_parser = ["none", "dom", "network"])]
        settle: Option<String>,
    },
    /// Press a key or chord (Enter, Control+A, Shift+Tab, ...).
    Press {
        key: String,
        /// What to wait for after the key: none, dom or network (default).
        #[arg(long, value_parser = ["none", "dom", "network"])]
        settle: Option<String>,
    },
    /// Type text as key presses into whatever has focus.
    Keyboard { text: String },
    /// Wait, bounded, until text appears (--text) or goes (--gone), an
    /// element by ref reaches a state (--ref REF --state S), the URL
    /// matches a glob (--url), or an element's text stops changing
    /// (--stable REF). Fails with `timeout` otherwise.
    #[command(group(clap::ArgGroup::new("condition").required(true)
        .args(["text", "gone", "state", "url", "stable"])))]
    Wait(WaitArgs),
    /// Scroll the page, or the scroll container REF names (a real mouse
    /// wheel, so virtualized lists render), by --by PX, --up/--down (one
    /// viewport, or --amount PX), --direction D, or --to top|bottom; or
    /// bring REF into view (--into-view). Reports the offsets before and
    /// after, whether it reached the edge, and whether more content came.
    Scroll(crate::scroll_command::ScrollArgs),
    /// Render the current tab at a size in CSS pixels (WIDTHxHEIGHT,
    /// optionally --scale F and --mobile), or remove that with --reset.
    /// Reports the size the page reads back.
    Viewport(crate::viewport_command::ViewportArgs),
    /// Hand the current tab to a person: its window comes to the front, a
    /// takeover.requested event carries REASON, and the command waits
    /// until `bp takeover done` (from any shell of yours), --until-url
    /// GLOB or --until-text TEXT is reached, or --timeout MS passes.
    Takeover(crate::takeover_command::TakeoverArgs),
    /// Read the state of the current tab's browser window, or set it:
    /// minimized, normal or maximized (read back from the browser).
    Window(crate::takeover_command::WindowArgs),
    /// Print the console messages and page errors of the tabs this CLI's
    /// workspace controls (--errors: only errors), or --follow them until
    /// Ctrl-C or --timeout MS.
    Console(crate::console_command::ConsoleArgs),
    /// Emulate media features on the current tab: --color-scheme
    /// light|dark|no-preference, --reduced-motion reduce|no-preference.
    /// Reports what the page's matchMedia reads back.
    Emulate(crate::viewport_command::EmulateArgs),
    /// Move the real mouse pointer onto the element REF names (or onto a
    /// viewport point with --at X,Y, in CSS pixels as in a screenshot) and
    /// leave it there: hover menus open, and a click on a revealed item
    /// moves on from there. Reports what appeared and what is under it.
    Hover(crate::hover_command::HoverArgs),
    /// Drag the element FROM onto the element TO (or --by DX,DY CSS
    /// pixels) with the real pointer; pages using HTML5 drag and drop get
    /// real drag events. Reports whether the element moved, its order
    /// changed, the drop target changed or its value changed.
    Drag(crate::drag_command::DragArgs),
    /// Choose options in a select, combobox or listbox by ref: by visible
    /// label (default) or --by value. A combobox is opened with a real
    /// click and closed again. Reports what is selected now, read back
    /// from the page; an option that does not exist is refused (with the
    /// options there are) and nothing changes.
    Select(crate::select_command::SelectArgs),
    /// Fill several fields by ref in one call, in order: REF=VALUE with
    /// text for a text field, an option label for a select, true/false
    /// for a checkbox or radio, a number for a range input. Each field is
    /// read back; it stops at the first that fails, with that field's
    /// error code.
    Fill(crate::fill_command::FillArgs),
    /// Read what a person sees of the page or of one element by ref: its
    /// text and form field values (never passwords). Hidden text is left
    /// out and counted (on stderr, or `hiddenText` with --json).
    Read {
        #[arg(value_name = "REF")]
        reference: Option<String>,
        #[arg(long)]
        max_chars: Option<u32>,
        /// Also return text a person cannot see (off screen, transparent,
        /// clipped, tiny, hidden by style).
        #[arg(long)]
        include_hidden: bool,
    },
    /// Screenshot the current tab into PATH (default ./screenshot-<time>.png).
    Screenshot {
        path: Option<PathBuf>,
        /// The whole scrollable page, not just the viewport.
        #[arg(long)]
        full_page: bool,
    },
    /// Print the current tab to a PDF file.
    Pdf { path: PathBuf },
    /// Put local files on a file input, or on the button or label that
    /// opens its file chooser, by ref.
    Upload {
        #[arg(value_name = "REF")]
        reference: String,
        #[arg(value_name = "FILE", required = true, num_args = 1..)]
        paths: Vec<PathBuf>,
    },
    /// List this CLI's workspace's artifacts: kind, name, size, time and,
    /// for downloads, the URL they came from.
    Artifacts,
    /// Print this CLI's workspace's event journal (downloads,
    /// navigations, dialogs...); --follow keeps printing until Ctrl-C.
    Events(crate::events_command::EventsArgs),
    /// Artifacts (screenshots, PDFs, imported files) of this CLI's workspace.
    Artifact {
        #[command(subcommand)]
        command: ArtifactCommand,
    },
    /// The request journal and request rules of this CLI's workspace.
    Net {
        #[command(subcommand)]
        command: NetCommand,
    },
    /// HTTP authentication credentials (the password is read from stdin).
    Auth {
        #[command(subcommand)]
        command: AuthCommand,
    },
    /// Web storage of the current tab's origin: get [KEY], set KEY VALUE,
    /// clear [KEY] (localStorage; --session for sessionStorage).
    Storage {
        #[command(subcommand)]
        command: crate::storage_command::StorageCommand,
    },
    /// A signed-in state (cookies and localStorage) in a file: save FILE
    /// (created 0600, a secret) and load FILE into the connected browser.
    State {
        #[command(subcommand)]
        command: crate::state_command::StateCommand,
    },
    /// Cookies of the current tab (default: get).
    Cookies {
        #[command(subcommand)]
        command: Option<CookieCommand>,
    },
    /// Pending JavaScript dialogs on this CLI's tabs.
    Dialogs,
    /// Answer a pending dialog (the only one, or by ID).
    Dialog {
        #[command(subcommand)]
        command: DialogCommand,
    },
    /// Tools the current tab's page declares for agents (WebMCP), as this
    /// client may call them.
    PageTools {
        /// Only this frame's tools (an ID from `bp frame`).
        #[arg(long)]
        frame: Option<String>,
        /// Also list consequential tools (asks for the page.consequential
        /// grant; the broker's page-tools level must be `all`).
        #[arg(long)]
        allow_consequential: bool,
    },
    /// Call a page-declared tool by its ref from `bp page-tools`.
    PageTool {
        #[arg(value_name = "REF")]
        reference: String,
        /// The tool's arguments as a JSON object, or `-` to read it from
        /// stdin.
        #[arg(long, default_value = "{}")]
        input: String,
        /// Allow calling a consequential tool (an order, a payment): asks
        /// for the page.consequential grant.
        #[arg(long)]
        allow_consequential: bool,
    },
    /// Evaluate JavaScript in the current tab (developer.eval).
    Eval { expression: String },
    /// List tabs (managed and user tabs).
    Tabs,
    /// Make a listed tab the current one (taking control of it).
    Tab { target: String },
    /// List the current tab's frames, or select one (FRAME_ID) or the main
    /// frame (--main) for later snapshots.
    Frame {
        #[arg(conflicts_with = "main")]
        frame: Option<String>,
        #[arg(long)]
        main: bool,
    },
    /// Close a tab by ID (user tabs only this way), or --all: every tab
    /// this CLI opened (its ManagedTabSet), never a user tab.
    Close {
        #[arg(required_unless_present = "all", conflicts_with = "all")]
        target: Option<String>,
        #[arg(long)]
        all: bool,
    },
    /// Tools of this broker.
    Tool {
        #[command(subcommand)]
        command: ToolCommand,
    },
    /// The broker daemon.
    Broker {
        #[command(subcommand)]
        command: BrokerCommand,
    },
    /// Speak JSON-RPC 2.0 on stdin/stdout for an embedding agent product,
    /// relayed to the per-user broker (started if needed).
    Bridge {
        /// Use stdin/stdout (the only transport).
        #[arg(long, required = true)]
        stdio: bool,
    },
    /// Serve the Model Context Protocol on stdin/stdout: every tool the
    /// broker's policy leaves, as MCP tools, for one workspace and lease
    /// (released when stdin closes, on SIGTERM and on SIGINT).
    Mcp(crate::mcp::McpArgs),
    /// Fuzz the broker's JSON-RPC boundary in process, with no browser:
    /// prints the count, the rate and any minimised failing input.
    Fuzz {
        /// Inputs to run.
        #[arg(long, default_value_t = 100_000)]
        inputs: u64,
        /// Stop after this many seconds even if fewer inputs ran.
        #[arg(long)]
        seconds: Option<u64>,
        /// Generator seed (the same seed gives the same inputs).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Resident memory bound in MB; passing it is a failure.
        #[arg(long, default_value_t = 1024)]
        max_rss_mb: u64,
        /// Directory for minimised failing inputs.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Harnesses run side by side, each with its own broker.
        #[arg(long, default_value_t = 1)]
        jobs: usize,
        /// Fuzz a real `bp mcp` process over its stdin instead (MCP-shaped
        /// input from the same generator, one server, a ping after each).
        #[arg(long, conflicts_with_all = ["jobs", "out"])]
        mcp: bool,
    },
    /// Soak: many bridge clients on their own tabs making mixed calls
    /// against a launched headless Chromium; prints errors by code,
    /// latency percentiles, leaks and broker memory.
    Soak {
        /// Bridge clients, each with its own workspace, lease and tab.
        #[arg(long, default_value_t = 16)]
        clients: usize,
        /// Calls per client.
        #[arg(long, default_value_t = 500)]
        calls: usize,
        /// Rounds against the same broker (memory after each tells
        /// reuse from a leak).
        #[arg(long, default_value_t = 1)]
        rounds: usize,
        /// Directory of fixture pages to serve (default: ./fixtures/pages).
        #[arg(long)]
        fixtures: Option<PathBuf>,
    },
    /// Measure the one-shot workflow against direct CDP (prints numbers).
    Bench {
        /// Workflow repetitions.
        #[arg(long, default_value_t = 10)]
        iterations: usize,
        /// Directory of fixture pages to serve (default: ./fixtures/pages).
        #[arg(long)]
        fixtures: Option<PathBuf>,
        /// Only the form workflow and keyboard tables (seconds, not
        /// minutes): no large page, no other speed goals, no user's-own-browser part.
        #[arg(long)]
        workflow_only: bool,
        /// Only the page-tools part (a page tool's call split against the
        /// bare invoke), with its own broker.
        #[arg(long, conflicts_with = "workflow_only")]
        page_tools_only: bool,
    },
}

#[derive(Subcommand)]
pub enum DialogCommand {
    /// Accept (OK), optionally with prompt text.
    Accept {
        id: Option<String>,
        #[arg(long)]
        text: Option<String>,
    },
    /// Dismiss (Cancel).
    Dismiss { id: Option<String> },
}

#[derive(Subcommand)]
pub enum NetCommand {
    /// Requests made by this workspace's tabs.
    Log {
        #[arg(long)]
        limit: Option<u32>,
        /// Only entries after this sequence number.
        #[arg(long)]
        since: Option<u32>,
    },
    /// Fail requests whose URL matches PATTERN (`*` is a wildcard).
    Block {
        pattern: String,
        /// Only for the current tab.
        #[arg(long)]
        tab: bool,
    },
    /// Answer matching requests with a canned response.
    Mock {
        pattern: String,
        #[arg(long, default_value_t = 200)]
        status: u16,
        #[arg(long, default_value = "")]
        body: String,
        /// A response header NAME:VALUE; repeatable.
        #[arg(long = "header")]
        headers: Vec<String>,
        #[arg(long)]
        tab: bool,
    },
    /// Send matching requests with extra headers.
    Headers {
        pattern: String,
        /// A request header NAME:VALUE; repeatable.
        #[arg(long = "header", required = true)]
        headers: Vec<String>,
        #[arg(long)]
        tab: bool,
    },
    /// List the rules.
    Rules,
    /// Remove one rule, or all.
    Clear { rule_id: Option<String> },
}

#[derive(Subcommand)]
pub enum AuthCommand {
    /// Answer auth challenges from ORIGIN; the password is read from stdin.
    Set {
        origin: String,
        #[arg(long)]
        username: String,
    },
    /// Forget credentials for ORIGIN, or all.
    Clear { origin: Option<String> },
}

#[derive(Subcommand)]
pub enum CookieCommand {
    /// Cookies for the current tab (or the given URLs).
    Get {
        #[arg(long = "url")]
        urls: Vec<String>,
    },
    /// Set a cookie; without VALUE it is read from stdin.
    Set {
        name: String,
        value: Option<String>,
        #[arg(long)]
        domain: Option<String>,
        #[arg(long)]
        path: Option<String>,
        #[arg(long)]
        secure: bool,
        #[arg(long)]
        http_only: bool,
    },
    /// Delete the current tab's cookies.
    Clear,
}

#[derive(Subcommand)]
pub enum ArtifactCommand {
    /// Copy an artifact to PATH.
    Export { id: String, path: PathBuf },
    /// Delete an artifact.
    Release { id: String },
}

#[derive(Subcommand)]
pub enum ToolCommand {
    /// List the tools this broker offers.
    List,
    /// Call a tool with JSON arguments.
    Call {
        name: String,
        /// The arguments object, as JSON.
        #[arg(long, default_value = "{}")]
        input: String,
    },
}

#[derive(Subcommand)]
pub enum BrokerCommand {
    /// Run the broker in the foreground.
    Serve {
        /// Policy file (TOML) naming denied capabilities and limits.
        #[arg(long)]
        policy: Option<PathBuf>,
        #[arg(long = "deny", value_name = "CAPABILITY", help = deny_help())]
        deny: Vec<String>,
        /// Remove one tool while its capabilities stay (for example
        /// browser.tabs.close); repeatable.
        #[arg(long = "deny-tool", value_name = "TOOL")]
        deny_tools: Vec<String>,
        /// Keep the tabs the broker controls on these origins only
        /// (http://127.0.0.1:8123, https://*.example.com); repeatable.
        #[arg(long = "allowed-origin", value_name = "ORIGIN")]
        allowed_origins: Vec<String>,
        /// Load tool components from this directory instead of the embedded set.
        #[arg(long)]
        components: Option<PathBuf>,
    },
    /// Show the running broker.
    Status,
    /// Stop the running broker (and a browser it launched); refused while
    /// other clients hold live leases, unless --force.
    Stop {
        /// Stop even while other clients hold live leases.
        #[arg(long)]
        force: bool,
    },
    /// Print the end of the broker's log (BROWSER_PILOT_HOME/broker.log and
    /// its rotated files); needs no running broker.
    Logs {
        /// Keep printing lines as they are written, until interrupted.
        #[arg(long, short = 'f')]
        follow: bool,
        /// How many of the last lines to print first.
        #[arg(long, short = 'n', default_value_t = 100)]
        lines: usize,
    },
}
