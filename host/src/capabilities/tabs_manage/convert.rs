//! Conversion of an opened tab to WIT (destructured); its title loses its
//! invisible characters here.

use crate::browser::workspace::tabs::OpenedTab;
use crate::sanitize::invisible;
use crate::wit::tabs_manage;

impl From<OpenedTab> for tabs_manage::TabInfo {
    fn from(t: OpenedTab) -> Self {
        let OpenedTab {
            target_id,
            url,
            title,
            status,
            origin,
        } = t;
        Self {
            target_id,
            url,
            title: invisible::clean(&title),
            status,
            origin,
        }
    }
}
