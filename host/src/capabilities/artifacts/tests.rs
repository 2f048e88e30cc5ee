#[test]
fn only_png_and_pdf_may_be_kept() {
    use super::store::check_mime;
    assert!(check_mime("image/png").is_ok());
    assert!(check_mime("application/pdf").is_ok());
    let err = check_mime("text/html").err();
    assert_eq!(
        err.map(|e| e.code),
        Some(crate::error::Code::InvalidArgument)
    );
}
