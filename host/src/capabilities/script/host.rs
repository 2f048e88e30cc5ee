//! The WIT `Host` impl of `script`.

use super::run;
use crate::error::BpResult;
use crate::tab::TabView;
use crate::wit::script;

impl script::Host for TabView<'_> {
    async fn evaluate(&mut self, expression: String) -> BpResult<String> {
        run::evaluate(self.settled().await?, &expression).await
    }
}
