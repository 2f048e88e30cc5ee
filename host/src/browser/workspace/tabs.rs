//! The host side of `tabs-manage` is implemented by the broker (it owns
//! workspaces and tab creation); a workspace call holds it as this trait.

use crate::error::BpResult;
use std::future::Future;
use std::pin::Pin;

/// A boxed future of a tab operation.
pub type TabsFuture<'a, T> = Pin<Box<dyn Future<Output = BpResult<T>> + Send + 'a>>;

/// A tab as the calling workspace sees it.
pub struct OpenedTab {
    pub target_id: String,
    pub url: String,
    pub title: String,
    pub status: Option<u16>,
    pub origin: String,
}

/// Tab management for one call, bound to its workspace and lease.
pub trait TabsHost: Send + Sync {
    /// Open a managed tab (and load `url`).
    fn open(&self, url: Option<String>) -> TabsFuture<'_, OpenedTab>;
    /// Close one addressable target.
    fn close(&self, target_id: String) -> TabsFuture<'_, Vec<String>>;
    /// Close the workspace's ManagedTabSet.
    fn close_managed(&self) -> TabsFuture<'_, Vec<String>>;
}
