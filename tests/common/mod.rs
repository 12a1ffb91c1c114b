//! Helpers shared by the integration tests.

/// Renders a diagnostic the way the command line shows it, without colour
/// and at a fixed width, so snapshots do not depend on the terminal.
#[allow(dead_code)]
pub fn render(diag: &dyn miette::Diagnostic) -> String {
    let mut out = String::new();
    let handler =
        miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
            .with_width(100);
    if handler.render_report(&mut out, diag).is_err() {
        return "<render failed>".to_string();
    }
    out
}
