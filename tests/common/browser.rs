//! Headless Chromium driven over WebDriver (fantoccini), for the report's browser test and
//! its load benchmark: `chromedriver` started on a free port in its own process group, a
//! session opened with the browser's console log kept, and the whole group killed when the
//! [`Browser`] is dropped, also when a test fails half-way.
//!
//! Chromium is Debian's `chromium` and `chromium-driver` (`.ci/run` installs them). Without
//! them this panics with a message saying so: a browser test must never pass by not running.

use std::io::{BufRead, BufReader};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};

use fantoccini::wd::WebDriverCompatibleCommand;
use fantoccini::{Client, ClientBuilder};
use serde_json::{json, Value};

/// `chromedriver`, running; its process group is killed on drop.
pub struct Driver {
    child: Child,
    /// The port it listens on.
    pub port: u16,
}

impl Drop for Driver {
    fn drop(&mut self) {
        // The browser is chromedriver's child, in its group: both go.
        let group = nix::unistd::Pid::from_raw(self.child.id() as i32);
        let _ = nix::sys::signal::killpg(group, nix::sys::signal::Signal::SIGKILL);
        let _ = self.child.wait();
    }
}

fn installed(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
}

/// Starts `chromedriver` on a free port and waits for the line saying it listens.
pub fn start_driver() -> Driver {
    for program in ["chromedriver", "chromium"] {
        assert!(
            installed(program),
            "`{program}` is not installed: the report's browser test needs Debian's chromium \
             and chromium-driver (`apt-get install chromium chromium-driver`; .ci/run installs them)"
        );
    }
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let mut child = Command::new("chromedriver")
        .arg(format!("--port={port}"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .expect("chromedriver starts");
    let stdout = child.stdout.take().expect("piped stdout");
    let driver = Driver { child, port };
    let mut lines = BufReader::new(stdout).lines();
    loop {
        match lines.next() {
            Some(Ok(line)) if line.contains("started successfully") => break,
            Some(Ok(_)) => {}
            _ => panic!("chromedriver stopped before it was ready"),
        }
    }
    // Keep draining its output, so that it never blocks on a full pipe.
    std::thread::spawn(move || lines.for_each(drop));
    driver
}

/// A browser session: headless Chromium with its console log kept.
pub struct Browser {
    /// The WebDriver client.
    pub client: Client,
    /// The driver; declared last, so it is dropped (killed) after the client.
    pub _driver: Driver,
}

/// Opens a session on a new driver, the window `width` × `height`.
pub async fn open(width: u32, height: u32) -> Browser {
    let driver = start_driver();
    let caps = json!({
        "goog:chromeOptions": {
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     format!("--window-size={width},{height}"), "--hide-scrollbars"],
        },
        "goog:loggingPrefs": { "browser": "ALL" },
    });
    let caps = match caps {
        Value::Object(map) => map,
        _ => unreachable!(),
    };
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    let client = ClientBuilder::new(connector)
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{}", driver.port))
        .await
        .expect("a WebDriver session with headless Chromium");
    Browser {
        client,
        _driver: driver,
    }
}

/// Chromedriver's log endpoint: the browser console's entries since the last call.
#[derive(Debug)]
struct BrowserLog;

impl WebDriverCompatibleCommand for BrowserLog {
    fn endpoint(
        &self,
        base_url: &url::Url,
        session_id: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base_url.join(&format!(
            "session/{}/se/log",
            session_id.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        (http::Method::POST, Some(r#"{"type":"browser"}"#.to_owned()))
    }
}

impl Browser {
    /// The console's entries since the last call, as `LEVEL message`.
    pub async fn console(&self) -> Vec<String> {
        let entries = self
            .client
            .issue_cmd(BrowserLog)
            .await
            .expect("chromedriver returns the browser log");
        entries
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|e| format!("{} {}", e["level"].as_str().unwrap_or("?"), e["message"]))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Runs `script` (a function body) in the page and returns its value.
    pub async fn js(&self, script: &str) -> Value {
        self.client
            .execute(script, Vec::new())
            .await
            .unwrap_or_else(|e| panic!("script failed: {e}: {script}"))
    }
}
