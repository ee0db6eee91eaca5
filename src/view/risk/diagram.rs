//! The risk lab's timeline: one lane per actor of the model (the agent, the
//! load balancer, both replicas, the database, the Risk API and both
//! workers) under an axis that reads the incident's wall clock and model
//! time. Tool calls and Risk API calls are messages between lanes, drawn
//! with their transit; every other fact is a mark and a label on its
//! actor's lane. The Risk API's lane carries a mark for every review it
//! creates: it is this lab's ledger.
//!
//! A burst makes hundreds of like facts at one instant. Three or more of a
//! kind at one instant on one lane are drawn once, with their count, so the
//! diagram of a 200-call burst stays as readable as the incident's; bars
//! (slots, queues, waits) are drawn only for runs of a few calls.

use crate::sim::Millis;
use crate::sim::risk::facts::{
    Actor, AgentDecision, BudgetStep, DownstreamId, Heard, Issuer, Policy, Record, ReplicaId, Reply, Status, Wait,
    What, is_legal,
};
use crate::sim::risk::{IntentOutcome, Run};
use crate::view::timeline::{Builder, Diagram, Frame, Glyph, LaneSpec, LaneStyle, Shape, Y};

use super::kinds::{self, Part, Seen};
use super::names;

const AXIS: usize = 0;
/// Replicas A to D always get a lane each; a fifth does too, and past five
/// the fifth lane on holds them all.
pub const SHOWN_REPLICAS: usize = 4;

/// How to read the timeline, across and down.
pub const TIMELINE_HINTS: [&str; 2] = [
    "Time runs left to right, on the incident's wall clock and in model time; the pink line is the playhead. Each dot on the Risk API's lane is a review it created. Click any mark to move the playhead to it.",
    "Time runs down, a column per actor; the pink line is the playhead. A dot in the API's column is a review created. Click a mark to move the playhead there.",
];

/// Three or more like facts at one instant on one lane are drawn once.
pub const GROUP_MIN: usize = 3;
/// Runs with more tool calls than this draw no per-call bars.
pub const DETAIL_CALLS: usize = 24;

/// A run's lanes: the axis, the agent, the load balancer, the replicas (up
/// to five, and past five A to D and one lane that holds the rest), the database, the
/// Risk API (the ledger) and the two workers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lanes {
    replicas: usize,
}

impl Lanes {
    pub fn new(replicas: usize) -> Lanes {
        Lanes { replicas: replicas.max(1) }
    }

    pub fn of_run(run: &Run) -> Lanes {
        Lanes::new(run.settings().replicas)
    }

    /// How many lanes the replicas take.
    fn replica_lanes(&self) -> usize {
        if self.folds() { SHOWN_REPLICAS + 1 } else { self.replicas }
    }

    /// Whether the replicas past the fourth share a lane (five still fit).
    fn folds(&self) -> bool {
        self.replicas > SHOWN_REPLICAS + 1
    }

    /// The lane of `actor`.
    pub fn of(&self, actor: Actor) -> usize {
        let after = 3 + self.replica_lanes();
        match actor {
            Actor::Agent => 1,
            Actor::LoadBalancer => 2,
            Actor::Replica(replica) => 3 + replica.index().min(self.replica_lanes() - 1),
            Actor::Database => after,
            Actor::RiskApi => after + 1,
            Actor::Worker(crate::sim::risk::WorkerId::W1) => after + 2,
            Actor::Worker(crate::sim::risk::WorkerId::W2) => after + 3,
        }
    }

    /// The lane a record is drawn on (claims on their worker's lane).
    fn drawn(&self, r: &Record) -> usize {
        match r.what {
            What::Claim { by, .. } => self.of(Actor::Worker(by)),
            _ => self.of(r.actor),
        }
    }

    /// A lane's title; the shared one says which replicas it holds.
    pub fn title(&self, actor: Actor) -> String {
        match actor {
            Actor::Agent => "Agent".to_owned(),
            Actor::LoadBalancer => "Load balancer".to_owned(),
            Actor::Replica(replica) if self.folds() && replica.index() >= SHOWN_REPLICAS => {
                let first = ReplicaId(SHOWN_REPLICAS as u8).name();
                let last = ReplicaId(self.replicas as u8 - 1).name();
                format!("Replicas {first}–{last} ({})", self.replicas - SHOWN_REPLICAS)
            }
            Actor::Replica(replica) => format!("Replica {}", replica.name()),
            Actor::Database => "Database".to_owned(),
            Actor::RiskApi => "Risk API".to_owned(),
            Actor::Worker(crate::sim::risk::WorkerId::W1) => "Worker 1".to_owned(),
            Actor::Worker(crate::sim::risk::WorkerId::W2) => "Worker 2".to_owned(),
        }
    }

    /// A lane's title in at most three characters, for a narrow column.
    pub fn short(&self, actor: Actor) -> String {
        match actor {
            Actor::Agent => "Agt".to_owned(),
            Actor::LoadBalancer => "LB".to_owned(),
            Actor::Replica(replica) if self.folds() && replica.index() >= SHOWN_REPLICAS => {
                format!("{}+", ReplicaId(SHOWN_REPLICAS as u8).name())
            }
            Actor::Replica(replica) => replica.name().to_owned(),
            Actor::Database => "DB".to_owned(),
            Actor::RiskApi => "API".to_owned(),
            Actor::Worker(crate::sim::risk::WorkerId::W1) => "W1".to_owned(),
            Actor::Worker(crate::sim::risk::WorkerId::W2) => "W2".to_owned(),
        }
    }

    /// The lanes, from the model's actors: the agent initiates (labels above
    /// its track), the load balancer is a gap messages cross, and the others
    /// carry bars below their tracks.
    pub fn specs(&self) -> Vec<LaneSpec> {
        let mut lanes = vec![LaneSpec { title: "Time".to_owned(), short: "t".to_owned(), style: LaneStyle::Axis }];
        let mut actors = Actor::all(self.replicas);
        actors.retain(|a| !matches!(a, Actor::Replica(r) if r.index() > SHOWN_REPLICAS && self.folds()));
        lanes.extend(actors.into_iter().map(|actor| LaneSpec {
            title: self.title(actor),
            short: self.short(actor),
            style: match actor {
                Actor::Agent => LaneStyle::LabelsAbove,
                Actor::LoadBalancer => LaneStyle::Between,
                _ => LaneStyle::LabelsBelow,
            },
        }));
        lanes
    }
}

/// Where the playback of a run ends: its last event. Workers wake until the
/// horizon, but a wake that finds nothing leaves no record, so nothing
/// changes after the last one.
pub fn end_of(run: &Run) -> Millis {
    run.summary().end
}

/// One slot per dense id (calls and Risk API calls are numbered from 1),
/// filled on first sight: plain vectors keep the page's bundle free of a
/// map type per key.
struct Slots<T>(Vec<Option<T>>);

impl<T: Copy> Slots<T> {
    fn new() -> Slots<T> {
        Slots(Vec::new())
    }

    fn slot(&mut self, n: u32) -> Option<&mut Option<T>> {
        let i = (n as usize).checked_sub(1)?;
        if self.0.len() <= i {
            self.0.resize_with(i + 1, || None);
        }
        self.0.get_mut(i)
    }

    /// Sets the value unless it is set already.
    fn first(&mut self, n: u32, value: T) {
        if let Some(slot) = self.slot(n) {
            slot.get_or_insert(value);
        }
    }

    fn set(&mut self, n: u32, value: T) {
        if let Some(slot) = self.slot(n) {
            *slot = Some(value);
        }
    }

    fn get(&self, n: u32) -> Option<T> {
        self.0.get((n as usize).checked_sub(1)?).copied().flatten()
    }
}

/// Facts about calls gathered before drawing: when each call reached its
/// replica, took a slot, was answered and heard, and when the Risk API and
/// its caller were done with each downstream call.
struct Index {
    lanes: Lanes,
    arrived: Slots<Millis>,
    started: Slots<Millis>,
    answered: Slots<Millis>,
    heard: Slots<(Millis, Heard)>,
    replies: Slots<Heard>,
    issuer: Slots<Issuer>,
    api_done: Slots<Millis>,
    caller_done: Slots<Millis>,
    request_lost: Vec<DownstreamId>,
}

impl Index {
    fn of(records: &[Record], lanes: Lanes) -> Index {
        let mut ix = Index {
            lanes,
            arrived: Slots::new(),
            started: Slots::new(),
            answered: Slots::new(),
            heard: Slots::new(),
            replies: Slots::new(),
            issuer: Slots::new(),
            api_done: Slots::new(),
            caller_done: Slots::new(),
            request_lost: Vec::new(),
        };
        for r in records {
            match r.what {
                What::CallAdmitted { call, .. } => {
                    ix.arrived.first(call.0, r.t);
                    ix.started.first(call.0, r.t);
                }
                What::CallQueued { call, .. } | What::Overloaded { call, .. } => ix.arrived.first(call.0, r.t),
                // A dropped call's queue bar ends where it was dropped.
                What::CallStarted { call, .. } | What::OutOfBudget { call, step: BudgetStep::Queue, .. } => {
                    ix.started.first(call.0, r.t)
                }
                What::ToolResult { call, reply, .. } => {
                    ix.answered.first(call.0, r.t);
                    ix.replies.set(call.0, Heard::Result(reply));
                }
                What::RpcError { call, error } => {
                    ix.answered.first(call.0, r.t);
                    ix.replies.set(call.0, Heard::Rpc(error));
                }
                What::ResultReceived { call, .. } => {
                    if let Some(heard) = ix.replies.get(call.0) {
                        ix.heard.set(call.0, (r.t, heard));
                    }
                }
                What::CreateSent { ds, by, .. } => ix.issuer.set(ds.0, by),
                What::ProbeSent { ds, .. } => {
                    if let Actor::Worker(w) = r.actor {
                        ix.issuer.set(ds.0, Issuer::Worker(w));
                    }
                }
                What::RequestLost { ds, .. } => ix.request_lost.push(ds),
                What::ReviewCreated { ds, .. } | What::ReviewReplayed { ds, .. } | What::ResponseLost { ds, .. } => {
                    ix.api_done.first(ds.0, r.t);
                }
                What::DownstreamReply { ds, .. } | What::LateReply { ds, .. } | What::ReplyUnheard { ds, .. } => {
                    ix.api_done.first(ds.0, r.t);
                    ix.caller_done.first(ds.0, r.t);
                }
                What::DownstreamTimeout { ds, .. } => ix.caller_done.first(ds.0, r.t),
                _ => {}
            }
        }
        ix
    }

    /// What the index knows about a record that its label names: what the
    /// agent heard, who sent a lost answer's call.
    fn seen(&self, r: &Record) -> Seen {
        match r.what {
            What::ResultReceived { call, .. } => {
                Seen { heard: self.heard.get(call.0).map(|(_, h)| h), ..Seen::default() }
            }
            What::ResponseLost { ds, .. } => {
                Seen { issuer: self.issuer.get(ds.0).map(Issuer::actor), ..Seen::default() }
            }
            _ => Seen::default(),
        }
    }

    /// The lane of whoever sent downstream call `ds`.
    fn issuer_lane(&self, ds: DownstreamId) -> usize {
        self.issuer.get(ds.0).map_or(self.lanes.of(Actor::RiskApi), |by| self.lanes.of(by.actor()))
    }
}

/// What makes facts "alike" for grouping: their instant, lane, kind and
/// the detail their shared label names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct GroupKey {
    t: Millis,
    lane: usize,
    kind: &'static str,
    detail: u32,
}

fn status_code(status: Status) -> u32 {
    Status::ALL.iter().position(|s| *s == status).unwrap_or(0) as u32
}

/// The part of a record that its group's label names, as a number.
fn detail(r: &Record) -> u32 {
    match r.what {
        What::Policy { decision, .. } => decision as u32,
        What::Transition { update, cause, .. } => {
            let legal = is_legal(Some(update.from), update.to, cause);
            status_code(update.from) * 1000 + status_code(update.to) * 100 + cause as u32 * 2 + u32::from(legal)
        }
        What::Claim { won, .. } => u32::from(won),
        What::CallQueued { waits, .. } => u32::from(matches!(waits, Wait::Fleet { .. })),
        What::InsertConflict { on, .. } => on as u32,
        What::DownstreamReply { answer, .. } | What::LateReply { answer, .. } => kinds::answer(answer).code,
        _ => 0,
    }
}

fn key_of(lanes: &Lanes, r: &Record) -> GroupKey {
    GroupKey { t: r.t, lane: lanes.drawn(r), kind: r.kind(), detail: detail(r) }
}

/// Where the message a record draws ends (a lane, or for a result the
/// moment it is heard): records of one group whose messages end elsewhere
/// each keep their line.
fn other_end(r: &Record, ix: &Index) -> Option<u64> {
    match r.what {
        What::Routed { call, replica, .. } => {
            Some(ix.lanes.of(Actor::Replica(replica)) as u64 + 16 * ix.arrived.get(call.0).map_or(0, |t| t.ms()))
        }
        What::ToolResult { call, .. } | What::RpcError { call, .. } => ix.heard.get(call.0).map(|(t, _)| t.ms()),
        What::CreateSent { ds, .. }
        | What::ProbeSent { ds, .. }
        | What::DownstreamReply { ds, .. }
        | What::LateReply { ds, .. }
        | What::ReplyUnheard { ds, .. }
        | What::ResponseLost { ds, .. }
        | What::RequestLost { ds, .. } => Some(ix.issuer_lane(ds) as u64),
        _ => None,
    }
}

/// How one record is labelled.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Label {
    Own,
    /// A group's label in place of the record's own.
    Group(String),
    /// Lines and marks only.
    Silent,
}

fn response_class(heard: Heard) -> &'static str {
    match heard {
        Heard::Result(Reply::Review { status: Status::Succeeded, .. }) => "response success",
        Heard::Result(Reply::Review { status: Status::Failed, .. }) => "response failed",
        Heard::Result(Reply::Review { .. }) => "response pending",
        Heard::Result(Reply::Error { .. }) | Heard::Rpc(_) => "response error",
    }
}

struct Draw<'a> {
    b: Builder,
    /// The time and index of the record being drawn.
    at: (Millis, usize),
    ix: Index,
    detailed: bool,
    records: &'a [Record],
}

/// The model times the run's axis stops at: one per record.
pub fn stop_times(run: &Run) -> Vec<Millis> {
    run.records().iter().map(|r| r.t).collect()
}

/// The axis two compared runs share: a stop at every event of either,
/// drawn to the later end (see [`diagram_on`]).
pub fn shared_axis(a: &Run, b: &Run) -> (Vec<Millis>, Millis) {
    let mut times = stop_times(a);
    times.extend(stop_times(b));
    (times, end_of(a).max(end_of(b)))
}

/// The run's timeline.
pub fn diagram(run: &Run) -> Diagram {
    diagram_in(run, Frame::Across(None))
}

/// The run's diagram alone, drawn for `frame`.
pub fn diagram_in(run: &Run, frame: Frame) -> Diagram {
    diagram_on(run, stop_times(run), end_of(run), frame)
}

/// The run's timeline on an axis with a stop at each of `times`, drawn to
/// `end`, for `frame` (the timeline or the sequence diagram): two
/// timelines drawn on the union of their stops line up on model time (two
/// sequence diagrams share their moments, each as tall as its own labels
/// need).
pub fn diagram_on(run: &Run, times: Vec<Millis>, end: Millis, frame: Frame) -> Diagram {
    let records = run.records();
    let lanes = Lanes::of_run(run);
    let mut b = Builder::framed(lanes.specs(), times.clone(), end, frame);
    // The wall clock under every stop's model time; not in a tight frame
    // (a projector's screen, an embed), where the run must fit and the
    // caption and the readout give the wall clock of the moment shown.
    let mut stops = if matches!(frame, Frame::Tight(_)) { Vec::new() } else { times };
    if !stops.is_empty() {
        stops.push(Millis::ZERO);
    }
    stops.sort_unstable();
    stops.dedup();
    for t in stops {
        let x = b.x(t);
        b.label(AXIS, x - 2.0, names::clock(t), "axis-label axis-clock", t, None);
    }
    let mut d = Draw {
        b,
        at: (Millis::ZERO, 0),
        ix: Index::of(records, lanes),
        detailed: run.summary().tool_calls as usize <= DETAIL_CALLS,
        records,
    };
    d.bars();
    // Group like facts; each group's first record carries its label. Records
    // come in time order and a group shares its instant, so groups are
    // found one instant at a time, among the few kinds that instant has.
    let mut start = 0;
    while start < records.len() {
        let t = records[start].t;
        let end = start + records[start..].iter().take_while(|r| r.t == t).count();
        // (key, first record, count) for this instant.
        let mut groups: Vec<(GroupKey, usize, usize)> = Vec::new();
        for (i, r) in records.iter().enumerate().take(end).skip(start) {
            let key = key_of(&lanes, r);
            match groups.iter_mut().find(|g| g.0 == key) {
                Some(g) => g.2 += 1,
                None => groups.push((key, i, 1)),
            }
        }
        let mut drawn: Vec<(GroupKey, Option<u64>)> = Vec::new();
        for (i, r) in records.iter().enumerate().take(end).skip(start) {
            let key = key_of(&lanes, r);
            let (first, n) = groups.iter().find(|g| g.0 == key).map_or((i, 1), |g| (g.1, g.2));
            let label = if n < GROUP_MIN {
                Label::Own
            } else if first == i {
                Label::Group(kinds::group(r, n))
            } else {
                Label::Silent
            };
            let end_of_message = (key, other_end(r, &d.ix));
            if drawn.contains(&end_of_message) {
                if label == Label::Silent {
                    continue;
                }
            } else {
                drawn.push(end_of_message);
            }
            d.record(i, r, label);
        }
        start = end;
    }
    let summary = summary_sentence(run);
    let mut diagram = d.b.finish(summary);
    shorten_lost_messages(&mut diagram);
    diagram
}

/// A message that never arrives ends half way, in a ✕: its line (class
/// `... lost`) and its cross (class `mark lost`) are drawn to the far end
/// and moved back to the middle once the lanes have their heights.
fn shorten_lost_messages(d: &mut Diagram) {
    let mut middles: Vec<(usize, (f64, f64))> = Vec::new();
    for item in &mut d.items {
        if let (true, Some(record), Shape::Line { x1, y1, x2, y2, .. }) =
            (item.class.ends_with(" lost"), item.record, &mut item.shape)
        {
            *x2 = (*x1 + *x2) / 2.0;
            *y2 = (*y1 + *y2) / 2.0;
            middles.push((record, (*x2, *y2)));
        }
    }
    for item in &mut d.items {
        if let (true, Some(record), Shape::Mark { x, y, .. }) =
            (item.class == "mark lost", item.record, &mut item.shape)
            && let Some(&(_, (mx, my))) = middles.iter().find(|m| m.0 == record)
        {
            *x = mx;
            *y = my;
        }
    }
}

impl Draw<'_> {
    /// Labels the record being drawn (`self.at`) as `how` says: its own
    /// words, its group's, or none.
    fn label(&mut self, lane: usize, x: f64, class: &'static str, how: &Label) {
        let (t, i) = self.at;
        match how {
            Label::Own => {
                let r = &self.records[i];
                let text = kinds::label(r, self.ix.seen(r));
                self.b.label(lane, x, text, class, t, Some(i));
            }
            Label::Group(text) => self.b.label(lane, x, text.clone(), class, t, Some(i)),
            Label::Silent => {}
        }
    }

    /// Slots and queues on the replicas, waits on the workers and work at
    /// the Risk API, for runs of a few calls.
    fn bars(&mut self) {
        if !self.detailed {
            return;
        }
        for (i, r) in self.records.iter().enumerate() {
            match r.what {
                What::CallQueued { call, .. } => {
                    let until = self.ix.started.get(call.0).or(self.ix.answered.get(call.0)).unwrap_or(r.t);
                    self.bar(self.ix.lanes.drawn(r), r.t, until, "queued", i);
                }
                What::CallAdmitted { call, .. } | What::CallStarted { call, .. } => {
                    let until = self.ix.answered.get(call.0).unwrap_or(r.t);
                    self.bar(self.ix.lanes.drawn(r), r.t, until, "slot", i);
                }
                What::CreateSent { ds, .. } | What::ProbeSent { ds, .. } => {
                    if let Some(done) = self.ix.api_done.get(ds.0) {
                        self.bar(self.ix.lanes.of(Actor::RiskApi), r.t, done, "processing", i);
                    }
                    let lane = self.ix.issuer_lane(ds);
                    if lane > self.ix.lanes.of(Actor::RiskApi)
                        && let Some(done) = self.ix.caller_done.get(ds.0)
                    {
                        self.bar(lane, r.t, done, "waiting", i);
                    }
                }
                _ => {}
            }
        }
    }

    fn bar(&mut self, lane: usize, from: Millis, until: Millis, class: &'static str, i: usize) {
        let (x1, x2) = (self.b.x(from), self.b.x(until));
        let row = self.b.bar_row(lane, x1, x2);
        self.b.bar(x1, x2, Y::Bar(lane, row), class, from, Some(i));
    }

    fn line(&mut self, from: (Millis, usize), to: (Millis, usize), arrow: bool, class: &'static str, i: usize) {
        let (x1, x2) = (self.b.x(from.0), self.b.x(to.0));
        self.b.line((x1, Y::Track(from.1)), (x2, Y::Track(to.1)), arrow, class, from.0, Some(i));
    }

    fn mark(&mut self, lane: usize, t: Millis, glyph: Glyph, class: &'static str, i: usize) {
        let x = self.b.x(t);
        self.b.mark(x, Y::Track(lane), glyph, class, t, Some(i));
    }

    /// Draws one record, labelled as `how` says, in the method of the part
    /// of the page it belongs to.
    fn record(&mut self, i: usize, r: &Record, how: Label) {
        self.at = (r.t, i);
        let how = &how;
        match kinds::part(&r.what) {
            Part::Agent => self.agent(i, r, how),
            Part::Balancer => self.balancer(i, r, how),
            Part::Gates | Part::Replica => self.replica(i, r, how),
            Part::DatabaseRows | Part::DatabaseUpdates => self.database(i, r, how),
            Part::Caller => self.caller(i, r, how),
            Part::Worker => self.worker(i, r, how),
            Part::RiskApi => self.risk_api(i, r, how),
        }
    }

    /// The agent's lane: each tool call it makes, and what it hears back or
    /// stops waiting for (a result's arrow is drawn by the replica that
    /// returns it).
    fn agent(&mut self, i: usize, r: &Record, how: &Label) {
        let t = r.t;
        let x = self.b.x(t);
        let agent = self.ix.lanes.of(Actor::Agent);
        let balancer = self.ix.lanes.of(Actor::LoadBalancer);
        let class = match r.what {
            What::ToolCall { .. } => {
                self.line((t, agent), (t, balancer), false, "request", i);
                self.mark(agent, t, Glyph::Dot, "mark call", i);
                "label call-label"
            }
            What::ResultReceived { decision, .. } => {
                let (glyph, class) = match decision {
                    AgentDecision::Done(IntentOutcome::Succeeded(_)) => (Glyph::Tick, "mark delivered"),
                    AgentDecision::Done(_) => (Glyph::Cross, "mark refused"),
                    _ => (Glyph::Dot, "mark heard"),
                };
                self.mark(agent, t, glyph, class, i);
                "label heard-label"
            }
            What::DeadlinePassed { .. } => {
                self.mark(agent, t, Glyph::Bar, "mark timeout", i);
                "label timeout-label"
            }
            What::ScriptedRetry { .. } => {
                self.mark(agent, t, Glyph::Dot, "mark retry", i);
                "label call-label"
            }
            _ => unreachable!("record() sends only the agent's facts here"),
        };
        self.label(agent, x, class, how);
    }

    /// The load balancer's gap: the arrow of each call to its replica.
    fn balancer(&mut self, i: usize, r: &Record, how: &Label) {
        let t = r.t;
        let x = self.b.x(t);
        let balancer = self.ix.lanes.of(Actor::LoadBalancer);
        let What::Routed { call, replica, .. } = r.what else {
            unreachable!("record() sends only the load balancer's facts here")
        };
        let to = self.ix.lanes.of(Actor::Replica(replica));
        let arrives = self.ix.arrived.get(call.0).unwrap_or(t);
        self.line((t, balancer), (arrives, to), true, "request", i);
        self.label(balancer, x + 4.0, "label", how);
    }

    /// A replica's lane: its gates, its policy decisions, and the arrow of
    /// each result back to the agent.
    fn replica(&mut self, i: usize, r: &Record, how: &Label) {
        let t = r.t;
        let x = self.b.x(t);
        let lane = self.ix.lanes.drawn(r);
        let agent = self.ix.lanes.of(Actor::Agent);
        let (glyph, mark, label) = match r.what {
            What::CallAdmitted { .. } => {
                // Taking a free slot is the ordinary case: a mark, and words
                // only for a crowd.
                self.mark(lane, t, Glyph::Tick, "mark admitted", i);
                if let Label::Group(text) = how {
                    self.b.label(lane, x, text.clone(), "label", t, Some(i));
                }
                return;
            }
            What::CallQueued { .. } | What::ReplicaPaused { .. } => (Glyph::Bar, "mark queued", "label queue-label"),
            What::CallStarted { .. } | What::SlotReleased { .. } => (Glyph::Tick, "mark started", "label"),
            What::OutOfBudget { .. } | What::Overloaded { .. } => {
                (Glyph::Cross, "mark overloaded", "label overloaded-label")
            }
            What::Policy { decision: Policy::Allowed, .. } => (Glyph::Diamond, "mark policy", "label"),
            What::Policy { decision: Policy::Forbidden, .. } => {
                (Glyph::Diamond, "mark forbidden", "label refused-label")
            }
            What::Policy { decision: Policy::NotChecked, .. } => (Glyph::Diamond, "mark unchecked", "label"),
            What::ToolResult { call, .. } | What::RpcError { call, .. } => {
                let (heard_at, heard) = match self.ix.heard.get(call.0) {
                    Some((at, heard)) => (at, heard),
                    None => (t, self.ix.replies.get(call.0).unwrap_or(Heard::Rpc(rpc_fallback()))),
                };
                self.line((t, lane), (heard_at, agent), true, response_class(heard), i);
                return;
            }
            _ => unreachable!("record() sends only a replica's facts here"),
        };
        self.mark(lane, t, glyph, mark, i);
        self.label(lane, x, label, how);
    }

    /// The database's inserts, reads, scans and locks, and its guarded
    /// updates and claims (a claim on its worker's lane): a legal move and an
    /// illegal one look different.
    fn database(&mut self, i: usize, r: &Record, how: &Label) {
        let t = r.t;
        let x = self.b.x(t);
        let lane = self.ix.lanes.drawn(r);
        let (glyph, mark, label) = match r.what {
            What::RowInserted { .. } | What::LockTried { taken: true, .. } => (Glyph::Dot, "mark insert", "label"),
            What::InsertConflict { .. } => (Glyph::Cross, "mark conflict", "label conflict-label"),
            What::LockTried { .. } => (Glyph::Cross, "mark conflict", "label"),
            What::RowRead { .. } | What::Scanned { .. } | What::LockReleased { .. } | What::RetryCounted { .. } => {
                (Glyph::Dot, "mark read", "label")
            }
            What::Transition { update, cause, .. } if is_legal(Some(update.from), update.to, cause) => {
                (Glyph::Diamond, "mark transition", "label transition-label")
            }
            What::Transition { .. } => (Glyph::Diamond, "mark illegal", "label illegal-label"),
            What::WriteSkipped { .. } => (Glyph::Bar, "mark skipped", "label"),
            What::Claim { won: true, .. } => (Glyph::Tick, "mark claim-won", "label claim-label"),
            What::Claim { .. } => (Glyph::Cross, "mark claim-lost", "label lost-label"),
            _ => unreachable!("record() sends only the database's facts here"),
        };
        self.mark(lane, t, glyph, mark, i);
        self.label(lane, x, label, how);
    }

    /// A Risk API call on its caller's lane (a replica's or a worker's): the
    /// request, and then its answer, timeout, late answer or unheard answer.
    fn caller(&mut self, i: usize, r: &Record, how: &Label) {
        let t = r.t;
        let x = self.b.x(t);
        let lane = self.ix.lanes.drawn(r);
        let api = self.ix.lanes.of(Actor::RiskApi);
        let label = match r.what {
            What::CreateSent { ds, .. } => {
                if !self.ix.request_lost.contains(&ds) {
                    self.line((t, lane), (t, api), true, "request create", i);
                }
                "label"
            }
            What::DownstreamReply { answer, .. } => {
                self.line((t, api), (t, lane), true, kinds::answer(answer).class, i);
                "label"
            }
            What::DownstreamTimeout { .. } => {
                self.mark(lane, t, Glyph::Bar, "mark timeout", i);
                "label timeout-label"
            }
            What::LateReply { .. } => {
                self.line((t, api), (t, lane), true, "response late", i);
                "label late-label"
            }
            What::ReplyUnheard { .. } => {
                self.line((t, api), (t, lane), true, "response unheard", i);
                self.mark(lane, t, Glyph::Cross, "mark crash", i);
                "label lost-label"
            }
            _ => unreachable!("record() sends only a Risk API call's caller's facts here"),
        };
        self.label(lane, x, label, how);
    }

    /// A worker's own acts: its probes and its crash.
    fn worker(&mut self, i: usize, r: &Record, how: &Label) {
        let t = r.t;
        let x = self.b.x(t);
        let lane = self.ix.lanes.drawn(r);
        let label = match r.what {
            What::ProbeSent { .. } => {
                self.line((t, lane), (t, self.ix.lanes.of(Actor::RiskApi)), true, "request find", i);
                "label"
            }
            What::WorkerCrashed { .. } => {
                self.mark(lane, t, Glyph::Cross, "mark crash", i);
                "label crash-label"
            }
            _ => unreachable!("record() sends only a worker's own facts here"),
        };
        self.label(lane, x, label, how);
    }

    /// The Risk API's lane, this lab's ledger: every review it creates or
    /// returns, and the faults that lose a call, hang it or lose its answer.
    fn risk_api(&mut self, i: usize, r: &Record, how: &Label) {
        let t = r.t;
        let x = self.b.x(t);
        let api = self.ix.lanes.of(Actor::RiskApi);
        match r.what {
            What::RequestLost { ds, .. } => {
                let from = self.ix.issuer_lane(ds);
                self.line((t, from), (t, api), false, "request lost", i);
                self.mark(api, t, Glyph::Cross, "mark lost", i);
                self.label(api, x, "label lost-label", how);
            }
            What::FindHangs { .. } => {
                self.mark(api, t, Glyph::Cross, "mark hangs", i);
                self.label(api, x, "label lost-label", how);
            }
            What::ReviewCreated { .. } => {
                self.mark(api, t, Glyph::Dot, "mark review", i);
                self.label(api, x, "label review-label", how);
            }
            What::ReviewReplayed { .. } => {
                self.mark(api, t, Glyph::Diamond, "mark replay", i);
                self.label(api, x, "label", how);
            }
            What::ResponseLost { ds, .. } => {
                let to = self.ix.issuer_lane(ds);
                self.line((t, api), (t, to), false, "response lost", i);
                self.mark(to, t, Glyph::Cross, "mark lost", i);
                self.label(api, x + 8.0, "label lost-label", how);
            }
            _ => unreachable!("record() sends only the Risk API's facts here"),
        }
    }
}

fn rpc_fallback() -> crate::sim::risk::facts::RpcError {
    crate::sim::risk::facts::RpcError::InvalidRequest
}

/// One sentence for the diagram's accessible description.
pub fn summary_sentence(run: &Run) -> String {
    let s = run.summary();
    let end = end_of(run);
    let illegal = run.records().iter().filter_map(|r| r.row_move()).filter(|m| !m.is_legal()).count();
    format!(
        "Timeline from {} to {}: {} tool call(s), {} row(s) in the table, {} review(s) at the Risk API, {} illegal transition(s).",
        names::when(Millis::ZERO),
        names::when(end),
        s.tool_calls,
        s.rows,
        s.reviews,
        illegal
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::ParamDef;
    use crate::sim::risk::settings::{CAS, IDEMPOTENT_CREATE, MODE, PRESET, SEED, TIMEOUT_IS_UNKNOWN};
    use crate::sim::risk::{Mode, Preset, Settings};

    fn run(preset: Preset, mode: Mode) -> Run {
        Run::simulate(&Settings::preset(preset, mode)).unwrap()
    }

    fn labels(d: &Diagram) -> Vec<&str> {
        d.texts().into_iter().map(|t| t.0).collect()
    }

    /// Every preset in both modes, some seeds and some single switches.
    fn varied() -> Vec<Run> {
        let mut runs = Vec::new();
        for preset in Preset::ALL {
            for mode in [Mode::Naive, Mode::Patterns] {
                runs.push(run(preset, mode));
            }
        }
        let pairs: [&[(&'static ParamDef, &str)]; 5] = [
            &[(&PRESET, "random-faults"), (&SEED, "7")],
            &[(&PRESET, "random-faults"), (&SEED, "12"), (&MODE, "patterns")],
            &[(&PRESET, "not-found-resend"), (&MODE, "patterns"), (&CAS, "off")],
            &[(&PRESET, "incident"), (&MODE, "patterns"), (&TIMEOUT_IS_UNKNOWN, "off")],
            &[(&PRESET, "incident"), (&MODE, "naive"), (&IDEMPOTENT_CREATE, "on")],
        ];
        for p in pairs {
            runs.push(Run::simulate(&Settings::from_pairs(p).unwrap()).unwrap());
        }
        for seed in 0..20 {
            let seed = seed.to_string();
            runs.push(
                Run::simulate(&Settings::from_pairs(&[(&PRESET, "random-faults"), (&SEED, &seed)]).unwrap()).unwrap(),
            );
        }
        runs
    }

    #[test]
    fn the_lanes_come_from_the_model_actors() {
        let titles: Vec<String> = Lanes::new(2).specs().into_iter().map(|l| l.title).collect();
        assert_eq!(
            titles,
            [
                "Time",
                "Agent",
                "Load balancer",
                "Replica A",
                "Replica B",
                "Database",
                "Risk API",
                "Worker 1",
                "Worker 2"
            ]
        );
        assert_eq!(Lanes::new(2).of(Actor::RiskApi), 6);
        // Five replicas still get a lane each; past five, E on share one.
        let five: Vec<String> = Lanes::new(5).specs().into_iter().map(|l| l.title).collect();
        assert_eq!(&five[3..9], ["Replica A", "Replica B", "Replica C", "Replica D", "Replica E", "Database"]);
        let twenty = Lanes::new(20);
        let titles: Vec<String> = twenty.specs().into_iter().map(|l| l.title).collect();
        assert_eq!(&titles[6..9], ["Replica D", "Replicas E–T (16)", "Database"]);
        assert_eq!(twenty.of(Actor::Replica(ReplicaId(19))), twenty.of(Actor::Replica(ReplicaId(4))));
        assert_eq!(twenty.of(Actor::RiskApi), 9);
    }

    #[test]
    fn labels_never_collide_or_leave_the_picture() {
        for r in varied() {
            let d = diagram(&r);
            let collisions = d.label_collisions();
            assert!(collisions.is_empty(), "{collisions:?} for {:?} {:?}", r.settings().preset, r.settings().mode);
        }
    }

    #[test]
    fn every_moment_with_an_event_can_be_clicked() {
        for r in varied() {
            let d = diagram(&r);
            for (i, record) in r.records().iter().enumerate() {
                let reachable =
                    d.items.iter().any(|item| item.record.is_some_and(|j| j == i || r.records()[j].t == record.t));
                assert!(reachable, "nothing to click for event {i} ({}) at {}", record.kind(), record.t);
            }
        }
    }

    #[test]
    fn the_axis_reads_the_wall_clock_and_model_time() {
        let d = diagram(&run(Preset::Incident, Mode::Naive));
        let l = labels(&d);
        // The report's first line, 10:31:08.120, is model time 0.
        for expected in ["10:31:08.120", "0.00 s", "10:31:12.531", "4.411 s"] {
            assert!(l.contains(&expected), "missing {expected:?}");
        }
    }

    #[test]
    fn the_naive_incident_draws_the_lost_response_the_illegal_move_and_two_reviews() {
        let d = diagram(&run(Preset::Incident, Mode::Naive));
        let l = labels(&d);
        for expected in [
            "call 1: request_risk_review rk-0001",
            "response to A lost",
            "Create times out after 2.50 s",
            "R10086 PENDING → FAILED (timeout, illegal)",
            "review RV-1 (rk-0001)",
            "review RV-2 (rk-0001)",
            "call 1: SUBMISSION_FAILED → gives up",
            "call 2: SUCCEEDED R10087 → done",
        ] {
            assert!(l.contains(&expected), "missing {expected:?} in {l:?}");
        }
        // Two reviews, each a mark in the Risk API's lane.
        assert_eq!(d.items.iter().filter(|i| i.class == "mark review").count(), 2);
        assert_eq!(d.items.iter().filter(|i| i.class == "mark illegal").count(), 1);
        // The lost response ends half way, in its cross.
        let line = d.items.iter().find(|i| i.class == "response lost").unwrap();
        let cross = d.items.iter().find(|i| i.class == "mark lost").unwrap();
        let (Shape::Line { x2, y1, y2, .. }, Shape::Mark { x, y, .. }) = (&line.shape, &cross.shape) else {
            panic!("a line and a mark")
        };
        assert_eq!((x2, y2), (x, y));
        let api = &d.lanes[Lanes::new(2).of(Actor::RiskApi)];
        assert!(*y1 > api.top && *y2 < api.top, "from the Risk API's lane towards the replica");
    }

    #[test]
    fn the_patterns_draw_probes_and_claims() {
        let d = diagram(&run(Preset::NotFoundResend, Mode::Patterns));
        let l = labels(&d);
        for expected in [
            "create rk-0001 lost on the way",
            "R10086 PENDING → UNKNOWN (timeout)",
            "FindByRequestKey(rk-0001)",
            "claim R10086 at version 3: won",
            "claim R10086 at version 3: lost",
        ] {
            assert!(l.contains(&expected), "missing {expected:?} in {l:?}");
        }
        assert!(d.items.iter().any(|i| i.class == "mark claim-won"));
        assert!(d.items.iter().any(|i| i.class == "mark claim-lost"));
        assert!(d.items.iter().any(|i| i.class == "waiting"), "workers wait for the Risk API");
    }

    #[test]
    fn a_burst_is_drawn_with_counts_and_no_per_call_bars() {
        let r = run(Preset::Overload, Mode::Patterns);
        let d = diagram(&r);
        let l = labels(&d);
        assert!(l.contains(&"200 calls of request_risk_review"), "{l:?}");
        assert!(l.iter().any(|t| t.ends_with(" OVERLOADED")), "{l:?}");
        assert!(l.contains(&"8 answers: created"), "a group names no single review: {l:?}");
        assert!(!d.items.iter().any(|i| i.class == "slot" || i.class == "queued"));
        // Far fewer drawn things than records.
        assert!(d.items.len() < r.records().len() / 2, "{} items", d.items.len());
        let q = diagram(&run(Preset::Incident, Mode::Naive));
        assert!(q.items.iter().any(|i| i.class == "slot"), "a few calls get their slots drawn");
    }

    #[test]
    fn the_gates_and_queues_are_drawn_when_a_few_calls_queue() {
        use crate::sim::risk::settings::{BURST_CALLS, CONCURRENCY_CAP, QUEUE_CAPACITY};
        let s = Settings::from_pairs(&[
            (&PRESET, "overload"),
            (&MODE, "patterns"),
            (&BURST_CALLS, "6"),
            (&CONCURRENCY_CAP, "1"),
            (&QUEUE_CAPACITY, "1"),
        ])
        .unwrap();
        let r = Run::simulate(&s).unwrap();
        let d = diagram(&r);
        assert!(d.label_collisions().is_empty());
        assert!(d.items.iter().any(|i| i.class == "queued"));
        assert!(d.items.iter().any(|i| i.class == "mark overloaded"));
    }

    #[test]
    fn the_svg_export_carries_the_playhead() {
        let r = run(Preset::Incident, Mode::Patterns);
        let svg = diagram(&r).to_svg(Some(Millis(2622)));
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.contains("class=\"playhead\""));
        assert!(svg.contains("10:31:10.742"));
    }
}
