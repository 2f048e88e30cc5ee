//! The WIT `Host` impl of `console`.

use super::{convert, ConsoleView};
use crate::error::BpResult;
use crate::wit::console::{self, ConsolePage, Level};

impl console::Host for ConsoleView<'_> {
    async fn read(&mut self, since: u64, levels: Vec<Level>, limit: u32) -> BpResult<ConsolePage> {
        let names: Vec<&str> = levels.iter().map(|l| convert::level_name(*l)).collect();
        let page = self.workspace()?.read_console(since, &names, limit).await;
        page.map(convert::page)
    }
}
