//! The rules that map spans to intents, attempts and effects: which
//! attributes hold a key, a request_key argument, a business key and an
//! effect. Each has a default from the semantic conventions (or, for the
//! effect, one documented attribute) and can be overridden by a flag of
//! `trace` or a field of the page, for a system that names them otherwise.

/// The attribute an MCP client span keeps its tool call's arguments in
/// (a JSON object, as text or as a map).
pub const ARGUMENTS: &str = "gen_ai.tool.call.arguments";

/// The longest value a rule may have.
pub const MAX_RULE_CHARS: usize = 100;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// The HTTP header that carries the idempotency key, captured as the
    /// attribute `http.request.header.<name in lower case>`.
    pub key_header: String,
    /// The tool call argument that carries the key of an MCP call.
    pub request_key_argument: String,
    /// The tool call argument that names the business key (the thing one
    /// review is allowed per).
    pub business_key_argument: String,
    /// A span carrying this attribute (any value but `false`) is an effect.
    pub effect_attribute: String,
    /// A database write (INSERT, UPDATE, DELETE, UPSERT, MERGE, REPLACE) to
    /// this table is an effect.
    pub effect_table: String,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            key_header: "Idempotency-Key".to_owned(),
            request_key_argument: "request_key".to_owned(),
            business_key_argument: "order_id".to_owned(),
            effect_attribute: "idempotency.effect".to_owned(),
            effect_table: "ledger".to_owned(),
        }
    }
}

/// A rule that can be overridden: its flag (`--key-header`), its name on
/// the page, and where it lives in [`Rules`].
pub struct RuleDef {
    pub flag: &'static str,
    pub label: &'static str,
    pub get: fn(&Rules) -> &str,
    pub set: fn(&mut Rules, String),
}

/// Every rule that can be overridden, in the order the page shows them.
pub const RULES: [RuleDef; 5] = [
    RuleDef {
        flag: "--key-header",
        label: "Idempotency key header",
        get: |r| &r.key_header,
        set: |r, v| r.key_header = v,
    },
    RuleDef {
        flag: "--request-key-argument",
        label: "Tool argument with the request key",
        get: |r| &r.request_key_argument,
        set: |r, v| r.request_key_argument = v,
    },
    RuleDef {
        flag: "--business-key-argument",
        label: "Tool argument with the business key",
        get: |r| &r.business_key_argument,
        set: |r, v| r.business_key_argument = v,
    },
    RuleDef {
        flag: "--effect-attribute",
        label: "Attribute that marks an effect",
        get: |r| &r.effect_attribute,
        set: |r, v| r.effect_attribute = v,
    },
    RuleDef {
        flag: "--effect-table",
        label: "Table whose writes are effects",
        get: |r| &r.effect_table,
        set: |r, v| r.effect_table = v,
    },
];

impl RuleDef {
    /// Sets the rule to `value`, or says what is allowed.
    pub fn apply(&self, rules: &mut Rules, value: &str) -> Result<(), String> {
        let value = value.trim();
        let allowed = format!("a name of 1 to {MAX_RULE_CHARS} printable characters");
        if value.is_empty() || value.chars().count() > MAX_RULE_CHARS || value.chars().any(char::is_control) {
            return Err(format!(
                "{}: \"{}\" is not allowed; allowed: {allowed}",
                self.flag,
                crate::sim::params::shorten(value)
            ));
        }
        (self.set)(rules, value.to_owned());
        Ok(())
    }
}

impl Rules {
    /// The attribute the key header is captured as.
    pub fn key_attribute(&self) -> String {
        format!("http.request.header.{}", self.key_header.to_ascii_lowercase())
    }
}
