//! Conversion of a pending dialog to WIT (destructured); the page's
//! message and default prompt lose their invisible characters here.

use crate::browser::types as domain;
use crate::sanitize::invisible;
use crate::wit::dialogs;

impl From<domain::DialogInfo> for dialogs::DialogInfo {
    fn from(d: domain::DialogInfo) -> Self {
        let domain::DialogInfo {
            dialog_id,
            target_id,
            kind,
            message,
            default_prompt,
            opened_at,
        } = d;
        Self {
            dialog_id,
            target_id,
            kind,
            message: invisible::clean(&message),
            default_prompt: default_prompt.map(|p| invisible::clean(&p)),
            opened_at,
        }
    }
}
