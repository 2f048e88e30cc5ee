//! The WIT `Host` impl of `script`.

use crate::error::BpResult;
use crate::tab::TabView;
use crate::wit::script;

impl script::Host for TabView<'_> {
    async fn evaluate(&mut self, expression: String) -> BpResult<String> {
        self.settled().await?.run_script(&expression).await
    }
}
