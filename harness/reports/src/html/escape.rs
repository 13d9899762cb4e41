//! Escaping: everything a record holds (bot names, commands, failure details) comes from
//! strangers, so it goes into the page only through these two functions, as text or as JSON
//! data, never as markup.

/// `text` made safe as HTML text or as a quoted attribute value: `& < > " '` become entities.
pub fn html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// JSON text made safe inside `<script type="application/json">`: `<`, `>` and `&` become
/// `\u003c`, `\u003e` and `\u0026`, so that no string in it can close the script element
/// (`</script>`) or open a comment (`<!--`). JSON only has these characters inside strings,
/// where the escapes mean the same characters to `JSON.parse`.
pub fn json_in_script(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            c => out.push(c),
        }
    }
    out
}

/// Fills `{{key}}` slots of a template in one pass: a value is never scanned again, so a
/// value that holds `{{key}}` (say, a bot named so) stays as it is.
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out =
        String::with_capacity(template.len() + values.iter().map(|v| v.1.len()).sum::<usize>());
    let mut rest = template;
    while let Some(open) = rest.find("{{") {
        out.push_str(&rest[..open]);
        let after = &rest[open + 2..];
        match after.find("}}") {
            Some(close) => {
                let key = &after[..close];
                match values.iter().find(|(k, _)| *k == key) {
                    Some((_, v)) => out.push_str(v),
                    None => panic!("the template's slot {{{{{key}}}}} has no value"),
                }
                rest = &after[close + 2..];
            }
            None => {
                out.push_str("{{");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_becomes_text() {
        assert_eq!(
            html(r#"<script>alert("x" & 'y')</script>"#),
            "&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt;"
        );
    }

    #[test]
    fn no_string_can_close_the_data_script() {
        let json = serde_json::to_string("</script><!--&").unwrap();
        let safe = json_in_script(&json);
        assert!(!safe.contains('<') && !safe.contains('>'));
        let back: String = serde_json::from_str(&safe).unwrap();
        assert_eq!(back, "</script><!--&");
    }

    #[test]
    fn values_are_not_scanned_again() {
        let out = fill("<h1>{{a}}</h1>{{b}}", &[("a", "{{b}}"), ("b", "x")]);
        assert_eq!(out, "<h1>{{b}}</h1>x");
    }
}
