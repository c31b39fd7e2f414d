"""Audit a saved log: a progress bar over its entries, then the summary or the first fault with
its evidence (engine.audit, the same checks as ``vampire audit``)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import Footer, ProgressBar, Static

from tui.files import display_path, shell_path, vampire_command
from tui.messages import AuditProgress
from tui.widgets.common.too_small import TooSmallNotice

if TYPE_CHECKING:
    from engine.audit import AuditReport

VERDICTS = {
    0: ("✓ CLEAN: complete, and every check passed.", "-clean"),
    1: ("✗ FAULT: the log proves something wrong.", "-fault"),
    2: ("! NO FAULT, BUT NOT FULLY CHECKED: the game is unfinished or some shuffles were never revealed.", "-partial"),
}


class AuditScreen(Screen[None]):
    """Runs the audit in a thread (it is CPU work) and shows its report."""

    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("r", "replay", "Replay this log"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = Path(path)
        self.report: AuditReport | None = None

    def compose(self) -> ComposeResult:
        yield TooSmallNotice()
        with Vertical(id="audit"):
            yield Static(Text(f"Audit of {display_path(self.path)}", style="bold"), id="audit-title")
            yield Static(
                "Checking signatures, the chain, every rule and every shuffle…", id="audit-what", classes="dim"
            )
            yield ProgressBar(id="audit-bar", show_eta=False)
            yield Static(id="audit-verdict")
            with VerticalScroll(id="audit-report"):
                yield Static(id="audit-text")
        yield Footer()

    def on_mount(self) -> None:
        self.run_audit()

    @work(thread=True, exclusive=True, group="audit")
    def run_audit(self) -> None:
        from engine.audit import audit_file
        from engine.games import all_rules

        def progress(done: int, total: int) -> None:
            self.post_message(AuditProgress(done, total))

        try:
            report = audit_file(self.path, all_rules(), progress=progress)
        except Exception as err:  # an audit must end in a sentence, whatever the file holds
            self.app.call_from_thread(self._failed, str(err) or type(err).__name__)
            return
        self.app.call_from_thread(self._show, report)

    @on(AuditProgress)
    def _progress(self, message: AuditProgress) -> None:
        if self.report is not None or not self.query("#audit-what"):
            return  # a late progress message after the report is shown, or the screen is closing
        bar = self.query_one(ProgressBar)
        bar.update(total=max(message.total, 1), progress=message.done)
        self.query_one("#audit-what", Static).update(f"Checked {message.done} of {message.total} entries…")

    def _show(self, report: AuditReport) -> None:
        self.report = report
        if not self.is_attached:
            return  # closed (Esc) while the audit ran: nothing to show it on
        try:
            self._draw(report)
        except NoMatches:
            return  # closing (Esc, the program's exit): its widgets are already gone

    def _draw(self, report: AuditReport) -> None:
        bar = self.query_one(ProgressBar)
        bar.update(total=max(report.entries, 1), progress=max(report.entries, 1))
        text, cls = VERDICTS[report.code]
        verdict = self.query_one("#audit-verdict", Static)
        verdict.update(text)
        verdict.add_class(cls)
        self.query_one("#audit-what", Static).update(
            f"{report.entries} entries read. The same check from a shell: {vampire_command()} audit {shell_path(self.path)}"
        )
        lines = report.text().split("\n")
        if lines and lines[0].startswith(("CLEAN", "FAULT", "NO FAULT")):
            lines = lines[1:]  # the verdict above says it already
        self.query_one("#audit-text", Static).update(Text("\n".join(lines)))
        self.refresh_bindings()

    def _failed(self, detail: str) -> None:
        if not self.is_attached or not self.query("#audit-verdict"):
            return  # closed, or closing: its widgets are already gone
        verdict = self.query_one("#audit-verdict", Static)
        verdict.update(f"✗ The audit could not run: {detail}")
        verdict.add_class("-fault")
        self.notify(f"The audit could not run: {detail}", severity="error")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "replay":
            return True if self.report is not None and self.report.entries else None
        return True

    closes_app = False
    """This screen is what the command opened (``vampire replay FILE``): closing it exits the
    program (status 0) instead of showing the home screen it was never asked for."""

    def action_back(self) -> None:
        if self.closes_app:
            self.app.exit()
            return
        self.app.pop_screen()

    def action_replay(self) -> None:
        from tui.screens.replay import ReplayScreen

        self.app.push_screen(ReplayScreen(self.path))
