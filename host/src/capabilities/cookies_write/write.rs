//! Setting cookies for the tab's page (a cookie with no domain is set for
//! the page's URL), and clearing the cookies the page would send.

use crate::browser::types::Cookie;
use crate::error::{BpError, BpResult};
use crate::tab::Tab;
use chromiumoxide::cdp::browser_protocol::network::{
    CookieParam, CookieSameSite, DeleteCookiesParams, SetCookiesParams, TimeSinceEpoch,
};

/// What the browser is told when it (or this check) refuses a cookie.
fn refused() -> BpError {
    BpError::invalid("the browser refused a cookie (check domain, path and flags)")
}

/// The browser's form of `c`: for the page's `url` when it names no
/// domain. A `same_site` other than `Strict`, `Lax` or `None` is refused
/// as the browser refuses it, before anything is sent.
pub(super) fn cookie_param(c: &Cookie, url: &str) -> BpResult<CookieParam> {
    let same_site = match c.same_site.as_deref() {
        None => None,
        Some("Strict") => Some(CookieSameSite::Strict),
        Some("Lax") => Some(CookieSameSite::Lax),
        Some("None") => Some(CookieSameSite::None),
        Some(_) => return Err(refused()),
    };
    let (url, domain) = if c.domain.is_empty() {
        (Some(url.to_string()), None)
    } else {
        (None, Some(c.domain.clone()))
    };
    let mut param = CookieParam::new(c.name.clone(), c.value.clone());
    param.url = url;
    param.domain = domain;
    param.path = Some(c.path.clone());
    param.secure = Some(c.secure);
    param.http_only = Some(c.http_only);
    param.same_site = same_site;
    param.expires = c.expires.map(TimeSinceEpoch::new);
    Ok(param)
}

pub(super) async fn set_cookies(tab: &mut Tab<'_>, cookies: Vec<Cookie>) -> BpResult<u32> {
    tab.check()?;
    let url = tab.page_url();
    let params = cookies
        .iter()
        .map(|c| cookie_param(c, &url))
        .collect::<BpResult<Vec<_>>>()?;
    if params.is_empty() {
        return Ok(0);
    }
    tab.dispatching();
    let set = SetCookiesParams::new(params);
    tab.send(&set).await.map_err(|_| refused())?;
    Ok(cookies.len() as u32)
}

pub(super) async fn clear_cookies(tab: &mut Tab<'_>) -> BpResult<u32> {
    let current = tab.cookies(Vec::new()).await?;
    tab.dispatching();
    for c in &current {
        let delete = DeleteCookiesParams {
            name: c.name.clone(),
            url: None,
            domain: Some(c.domain.clone()),
            path: Some(c.path.clone()),
            partition_key: None,
        };
        tab.send(&delete).await?;
    }
    Ok(current.len() as u32)
}
