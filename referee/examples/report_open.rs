//! How long a report page takes to open in headless Chromium: the page's
//! own clock (`performance.now()`) when its script has drawn everything,
//! navigation start included. Three loads each, in a fresh tab.
//!
//! `cargo run --release -p referee --features report-timing --example report_open -- REPORT.html...`
//! (Chromium from `$CHROMIUM`, else `chromium`, `chromium-browser` or
//! `google-chrome` on the PATH).

#[path = "../tests/it/system.rs"]
mod system;

fn main() {
    let Some(chromium) = system::chromium() else {
        eprintln!("report_open: no Chromium ($CHROMIUM, or chromium on the PATH)");
        std::process::exit(2)
    };
    let browser = system::launch(chromium).unwrap_or_else(|e| {
        eprintln!("report_open: cannot start Chromium: {e}");
        std::process::exit(2)
    });
    for page in std::env::args().skip(1) {
        let path = std::fs::canonicalize(&page).unwrap_or_else(|e| {
            eprintln!("report_open: {page}: {e}");
            std::process::exit(2)
        });
        let mut times = Vec::new();
        for _ in 0..3 {
            let tab = browser.new_tab().expect("a tab");
            tab.navigate_to(&format!("file://{}", path.display()))
                .expect("the page opens");
            let body = tab
                .wait_for_element("body[data-ready='1']")
                .expect("the page gets ready");
            let ms = body
                .get_attribute_value("data-ready-ms")
                .ok()
                .flatten()
                .unwrap_or_default();
            times.push(ms);
            let _ = tab.close(true);
        }
        println!("{page}: ready after {} ms", times.join(", "));
    }
}
