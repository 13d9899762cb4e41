//! A visitor of the pages without a browser: real HTTP with its own cookies (kept as a browser
//! keeps them, from every answer's Set-Cookie), redirects not followed, and the forms' CSRF
//! token read from the page last seen.

use std::collections::BTreeMap;

use crate::harness::Server;

/// An answer: status, body, the `Location` it sends on to, its headers by name.
pub struct Answer {
    pub status: u16,
    /// The body as text (lossy), and as it came.
    pub body: String,
    pub bytes: Vec<u8>,
    pub location: Option<String>,
    pub headers: BTreeMap<String, Vec<String>>,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .get(name)
            .and_then(|v| v.first())
            .map(String::as_str)
    }
}

pub struct Visitor {
    url: String,
    agent: ureq::Agent,
    pub cookies: BTreeMap<String, String>,
    /// The CSRF token of the last page that had a form.
    pub csrf: Option<String>,
}

/// The value of the first `name="csrf" value="..."` in a page.
pub fn csrf_in(page: &str) -> Option<String> {
    let at = page.find("name=\"csrf\" value=\"")? + "name=\"csrf\" value=\"".len();
    Some(page[at..at + 64].to_owned())
}

/// The text of the element with id `id` (up to its first `<`).
pub fn text_of(page: &str, id: &str) -> Option<String> {
    let key = format!("id=\"{id}\">");
    let at = page.find(&key)? + key.len();
    Some(page[at..].split('<').next()?.to_owned())
}

impl Visitor {
    pub fn new(server: &Server) -> Visitor {
        Visitor {
            url: server.url.clone(),
            agent: ureq::AgentBuilder::new().redirects(0).build(),
            cookies: BTreeMap::new(),
            csrf: None,
        }
    }

    fn send(&mut self, req: ureq::Request, body: Option<(&str, Vec<u8>)>) -> Answer {
        let cookie: Vec<String> = self
            .cookies
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        let req = if cookie.is_empty() {
            req
        } else {
            req.set("Cookie", &cookie.join("; "))
        };
        let answer = match body {
            Some((kind, bytes)) => req.set("Content-Type", kind).send_bytes(&bytes),
            None => req.call(),
        };
        let r = match answer {
            Ok(r) | Err(ureq::Error::Status(_, r)) => r,
            Err(e) => panic!("{e}"),
        };
        let mut headers: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for name in r.headers_names() {
            let all = r.all(&name).iter().map(|s| s.to_string()).collect();
            let name = name.to_ascii_lowercase();
            headers.insert(name, all);
        }
        for set in headers.get("set-cookie").cloned().unwrap_or_default() {
            let pair = set.split(';').next().unwrap_or("");
            let (k, v) = pair.split_once('=').unwrap();
            if v.is_empty() || set.contains("Max-Age=0") {
                self.cookies.remove(k);
            } else {
                self.cookies.insert(k.to_owned(), v.to_owned());
            }
        }
        let (status, location) = (r.status(), r.header("location").map(str::to_owned));
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut r.into_reader(), &mut bytes).unwrap();
        let body = String::from_utf8_lossy(&bytes).into_owned();
        if let Some(t) = csrf_in(&body) {
            self.csrf = Some(t);
        }
        Answer {
            status,
            body,
            bytes,
            location,
            headers,
        }
    }

    /// A visitor logged in with `token` (an entrant's or the host's) on the log-in page.
    pub fn logged_in(server: &Server, token: &str) -> Visitor {
        let mut v = Visitor::new(server);
        v.get("/login");
        v.post("/login", &[("token", token)]);
        v
    }

    pub fn get(&mut self, path: &str) -> Answer {
        let req = self.agent.get(&format!("{}{path}", self.url));
        self.send(req, None)
    }

    /// A form posted with `fields` as they are (add `csrf` to send one).
    pub fn post_raw(&mut self, path: &str, fields: &[(&str, &str)]) -> Answer {
        let body: Vec<String> = fields
            .iter()
            .map(|(k, v)| format!("{k}={}", encode(v)))
            .collect();
        let req = self.agent.post(&format!("{}{path}", self.url));
        self.send(
            req,
            Some((
                "application/x-www-form-urlencoded",
                body.join("&").into_bytes(),
            )),
        )
    }

    /// A form posted with the CSRF token of the last page seen.
    pub fn post(&mut self, path: &str, fields: &[(&str, &str)]) -> Answer {
        let csrf = self
            .csrf
            .clone()
            .expect("a page with a form was seen first");
        let mut all = fields.to_vec();
        all.push(("csrf", &csrf));
        self.post_raw(path, &all)
    }

    /// The upload form (multipart) with an archive and the page's CSRF token, or `csrf`.
    pub fn upload(&mut self, archive: &[u8], csrf: Option<&str>) -> Answer {
        let b = "page-boundary-7";
        let token = csrf.map_or_else(|| self.csrf.clone().unwrap(), str::to_owned);
        let mut body = format!(
            "--{b}\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n{token}\r\n\
             --{b}\r\nContent-Disposition: form-data; name=\"archive\"; filename=\"bot.tar.gz\"\r\n\r\n"
        )
        .into_bytes();
        body.extend_from_slice(archive);
        // An empty file field, as a browser sends for a file not chosen.
        body.extend_from_slice(
            format!(
                "\r\n--{b}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\"\r\n\r\n\r\n--{b}--\r\n"
            )
            .as_bytes(),
        );
        let req = self.agent.post(&format!("{}/upload", self.url));
        self.send(
            req,
            Some((&format!("multipart/form-data; boundary={b}"), body)),
        )
    }

    /// A GET of the API with this visitor's cookies: (status, JSON).
    pub fn api(&mut self, path: &str) -> (u16, serde_json::Value) {
        let a = self.get(path);
        (a.status, serde_json::from_str(&a.body).unwrap())
    }
}

fn encode(v: &str) -> String {
    v.bytes()
        .map(|c| match c {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (c as char).to_string(),
            _ => format!("%{c:02X}"),
        })
        .collect()
}

/// A folder as a .tar.gz, by the system's tar.
pub fn tar_gz(folder: &std::path::Path) -> Vec<u8> {
    let out = std::process::Command::new("tar")
        .arg("czf")
        .arg("-")
        .arg("-C")
        .arg(folder)
        .arg(".")
        .output()
        .unwrap();
    assert!(out.status.success());
    out.stdout
}
