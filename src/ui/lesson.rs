//! A lesson on the page: the step on screen, its question and the answer
//! (hidden until asked for), and moving between steps. A step may be in
//! another lab: the page that hosts every lab mounts it, the lab on screen
//! again too, from the step's link (`view::lesson::step_link`), so each
//! step is a link like any other and Back returns to the step before.

use leptos::prelude::*;

use crate::view::lesson::{LESSONS, Lesson, LessonAt, cut_words, parse, step_link};
use crate::view::page::Page;
use crate::view::url::to_query;

use super::dom;
use super::element::Host;

/// Opens step `at` on a page like `page`: in the custom element the lab
/// lives in, through the page that hosts every lab, or by loading the
/// step's address where there is neither.
pub fn open_step(at: &LessonAt, page: &Page, host: Host) {
    let link = step_link(at, page);
    let query = to_query(&link);
    if host.open_here(&query) {
        return;
    }
    let query = format!("?{query}");
    if !dom::switch_lab_to(link.lab, Some(&query))
        && let Some(w) = dom::window()
    {
        let _ = w.location().set_search(&query);
    }
}

/// Moves `by` steps through the lesson (PageDown and PageUp, the bar's
/// buttons); at either end it says so instead, through `say`.
pub fn step_by(at: &LessonAt, page: &Page, host: Host, by: isize, say: impl Fn(String)) {
    match at.moved(by) {
        Some(next) => open_step(&next, page, host),
        None => say(at.at_an_end(by > 0)),
    }
}

/// The lesson's bar: the lesson and the step, its question, the answer on
/// request, and the buttons to the steps before and after. `page` is the
/// page as it is now (presenter mode and the look carry to the next step).
pub fn lesson_bar(
    at: LessonAt,
    page: impl Fn() -> Page + Copy + Send + Sync + 'static,
    say: Callback<String>,
) -> impl IntoView {
    let shown = RwSignal::new(false);
    let host = Host::current();
    let step = at.current().clone();
    let cut = cut_words(&at.lesson).map(|words| {
        let held = at.lesson.clone();
        view! {
            <p class="lesson-cut">{words}</p>
            <button
                type="button"
                class="link"
                on:click=move |_| {
                    let _ = dom::download("lesson.lesson", "text/plain", &held.to_text());
                }
            >
                "Save the steps it holds as a file"
            </button>
        }
    });
    let (first, last) = (at.step == 0, at.step + 1 == at.lesson.steps.len());
    let (back, on) = (at.clone(), at.clone());
    let answer = step.answer.clone();
    view! {
        <section class="panel lesson" aria-labelledby="lesson-h">
            <p class="lesson-title">{format!("Lesson: {}", at.lesson.title)}</p>
            <h2 id="lesson-h" tabindex="-1">{at.heading()}</h2>
            {cut}
            {step.question.map(|q| view! { <p class="lesson-question">{q}</p> })}
            {answer
                .map(|a| {
                    view! {
                        <button
                            type="button"
                            class="link"
                            aria-expanded=move || shown.get().to_string()
                            on:click=move |_| shown.update(|s| *s = !*s)
                        >
                            {move || if shown.get() { "Hide the answer" } else { "Show the answer" }}
                        </button>
                        <p class="lesson-answer" hidden=move || !shown.get()>
                            {a}
                        </p>
                    }
                })}
            <div class="lesson-steps">
                <button
                    type="button"
                    aria-keyshortcuts="PageUp"
                    disabled=first
                    on:click=move |_| step_by(&back, &page(), host, -1, |t| say.run(t))
                >
                    "Previous step"
                </button>
                <button
                    type="button"
                    class="primary"
                    aria-keyshortcuts="PageDown"
                    disabled=last
                    on:click=move |_| step_by(&on, &page(), host, 1, |t| say.run(t))
                >
                    "Next step"
                </button>
            </div>
        </section>
    }
}

/// The lessons that come with the labs: start one, present it, or take its
/// text as the start of one's own. `page` is the page as it is now.
pub fn lessons_panel(page: impl Fn() -> Page + Copy + Send + Sync + 'static) -> impl IntoView {
    let host = Host::current();
    let items = LESSONS
        .iter()
        .filter_map(|text| parse(text).ok())
        .map(|lesson| {
            let title = lesson.title.clone();
            let steps = lesson.steps.len();
            let (start, show, file) = (lesson.clone(), lesson.clone(), lesson);
            let begin = move |lesson: &Lesson, present: bool| {
                let page = Page { present, ..page() };
                open_step(&LessonAt { lesson: lesson.clone(), step: 0 }, &page, host);
            };
            view! {
                <li>
                    <p class="lesson-name">{format!("{title} ({steps} steps)")}</p>
                    <button
                        type="button"
                        aria-label=format!("Start the lesson: {title}")
                        on:click=move |_| begin(&start, false)
                    >
                        "Start"
                    </button>
                    " "
                    <button
                        type="button"
                        aria-label=format!("Present the lesson: {title}")
                        on:click=move |_| begin(&show, true)
                    >
                        "Present"
                    </button>
                    " "
                    <button
                        type="button"
                        class="link"
                        on:click=move |_| {
                            let _ = dom::download("lesson.lesson", "text/plain", &file.to_text());
                        }
                    >
                        "Download its text"
                    </button>
                </li>
            }
        })
        .collect_view();
    view! {
        <section class="panel lessons" aria-labelledby="lessons-h">
            <h2 id="lessons-h">"Lessons"</h2>
            <p class="hint">
                "A lesson is a list of steps, each a lab, its settings and a moment, with a question. Write your own as text (the README says how) and open it with Import."
            </p>
            <ul class="lesson-list">{items}</ul>
        </section>
    }
}

/// A lesson's link written by hand whose step is in another lab than
/// `here`: opens the step there. True if it did.
pub fn follow(link: &crate::view::url::ParsedLink, here: crate::view::labs::Lab) -> bool {
    match &link.state.page.lesson {
        Some(at) if link.state.lab != here => {
            open_step(at, &link.state.page, Host::PAGE);
            true
        }
        _ => false,
    }
}
