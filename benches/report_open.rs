//! How fast a report opens in a real browser: `report.html` of a results folder loaded in
//! headless Chromium over WebDriver, several times, with the medians printed. Not a test (a
//! timed assert would fail on a busy machine); the figures are in docs/report.md.
//!
//! ```text
//! cargo bench --bench report_open -- [DIR] [--runs N] [--screenshot FILE [--game INDEX] [--ply K]]
//! ```
//!
//! DIR defaults to `out/report-10k` (`quads tournament configs/report-10k.toml --analyze`).
//! Per run: the time from the start of navigation to the end of the page's script (the list
//! drawn, `window.reportReadyAt`), to the load event, and the wall time of the whole
//! navigation as the driver sees it. With `--screenshot`, a picture of the page with a game
//! open (the list's INDEX-th game, after its K-th move, or at its end) is saved after the
//! runs.

#[path = "../tests/common/browser.rs"]
mod browser;

use std::path::PathBuf;
use std::time::Instant;

use fantoccini::Locator;

struct Options {
    dir: PathBuf,
    runs: usize,
    screenshot: Option<PathBuf>,
    game: usize,
    ply: Option<usize>,
}

fn options() -> Options {
    let mut o = Options {
        dir: PathBuf::from("out/report-10k"),
        runs: 5,
        screenshot: None,
        game: 0,
        ply: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--runs" => o.runs = args.next().and_then(|n| n.parse().ok()).expect("--runs N"),
            "--screenshot" => o.screenshot = args.next().map(PathBuf::from),
            "--game" => o.game = args.next().and_then(|n| n.parse().ok()).expect("--game N"),
            "--ply" => o.ply = args.next().and_then(|n| n.parse().ok()),
            "--bench" => {}
            dir => o.dir = PathBuf::from(dir),
        }
    }
    o
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    let n = xs.len();
    if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    }
}

async fn run(o: Options) {
    let page = std::path::absolute(o.dir.join("report.html")).expect("an absolute path");
    assert!(page.is_file(), "{} is missing", page.display());
    let url = format!("file://{}", page.display());
    let bytes = std::fs::metadata(&page).map(|m| m.len()).unwrap_or(0);
    let b = browser::open(1280, 900).await;
    let (mut ready, mut load, mut wall) = (Vec::new(), Vec::new(), Vec::new());
    for run in 0..o.runs {
        b.client.goto("about:blank").await.unwrap();
        let started = Instant::now();
        b.client.goto(&url).await.unwrap();
        b.client
            .wait()
            .for_element(Locator::Css("body[data-ready='1']"))
            .await
            .unwrap();
        wall.push(started.elapsed().as_secs_f64() * 1000.0);
        let t = b
            .js("const n = performance.getEntriesByType('navigation')[0]; return [window.reportReadyAt, n.loadEventEnd, document.querySelectorAll('#game-list tbody tr').length];")
            .await;
        ready.push(t[0].as_f64().unwrap());
        load.push(t[1].as_f64().unwrap());
        eprintln!(
            "run {}: ready {:.0} ms, load event {:.0} ms, navigation {:.0} ms ({} rows drawn)",
            run + 1,
            t[0].as_f64().unwrap(),
            t[1].as_f64().unwrap(),
            wall[run],
            t[2]
        );
    }
    let games = b.js("return DATA.games.length;").await;
    println!(
        "{} ({:.2} MB, {} games): median of {} runs: script done {:.0} ms, load event {:.0} ms, navigation {:.0} ms",
        page.display(),
        bytes as f64 / 1e6,
        games,
        o.runs,
        median(ready),
        median(load),
        median(wall)
    );
    if let Some(file) = &o.screenshot {
        b.client
            .goto(&format!("{url}#game-{}", o.game))
            .await
            .unwrap();
        b.client
            .wait()
            .for_element(Locator::Css("#replay:not([hidden])"))
            .await
            .unwrap();
        if let Some(k) = o.ply {
            b.js(&format!("Viewer.go({k}); return null;")).await;
        }
        std::fs::write(file, b.client.screenshot().await.unwrap()).unwrap();
        println!("screenshot of game {} in {}", o.game, file.display());
    }
    let errors: Vec<String> = b
        .console()
        .await
        .into_iter()
        .filter(|e| e.starts_with("SEVERE"))
        .collect();
    assert!(errors.is_empty(), "console errors: {errors:?}");
    b.client.clone().close().await.unwrap();
}

fn main() {
    let o = options();
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
        .block_on(run(o));
}
