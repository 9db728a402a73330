"""Keys ready before they freeze: a paper's key freezes when it leaves PaperDesk (copied,
dragged out, exported). A provisional key made without a name or a year (``actions``,
``deepa``) would freeze weak, before a completion from the Hub could improve it.

``keys_ready(context, ids, then)`` runs ``then`` (which lets the keys out) at once
when no key among ``ids`` is weak. Otherwise it offers to complete those papers
from the Hub first (Complete first / As they are / Cancel, with "always complete
first"), or completes them without asking when the user turned that on
(Paper > Complete from Hugging Face > Complete weak keys before they leave); the
completion is one undoable job on the worker, and ``then`` runs after it when every
key improved. A key it did not improve (offline, a paper the Hub does not know, a
record with no author or year) is not let out: the copy stops and says why, with
"Copy anyway" (``anyway``); only that answer lets the weak key out and freeze.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import QCheckBox, QMessageBox

from paperdesk.gui.common import settings
from paperdesk.gui.context import Feature

if TYPE_CHECKING:
    from paperdesk.gui.context import Context

ALWAYS = "hub/complete_weak_keys"  # off until the user turns it on
COMPLETE, AS_THEY_ARE = "complete", "as they are"


def always(context: Context) -> bool:
    return settings.settings().value(ALWAYS, False, type=bool)


def ask(context: Context, weak: list[int]) -> str | None:
    """COMPLETE, AS_THEY_ARE, or None (cancelled)."""
    keys = [p["citekey"] for p in context.lib.papers(weak[:3])]
    box = QMessageBox(QMessageBox.Icon.Question, "Complete the keys first?",
                      f"{len(weak)} of these papers have a provisional key made without an "
                      f"author or a year ({', '.join(keys)}{'…' if len(weak) > 3 else ''}). "
                      "Once they leave PaperDesk the keys never change again.",
                      parent=context.widget)
    box.setInformativeText("Complete them from Hugging Face first, so the keys are made "
                           "from their authors and years?")
    complete = box.addButton("Complete first", QMessageBox.ButtonRole.AcceptRole)
    as_is = box.addButton("Use the keys as they are", QMessageBox.ButtonRole.DestructiveRole)
    box.addButton(QMessageBox.StandardButton.Cancel)
    remember = QCheckBox("Always complete first, without asking")
    box.setCheckBox(remember)
    box.setDefaultButton(complete)
    box.exec()
    if box.clickedButton() is complete:
        if remember.isChecked():
            settings.save({ALWAYS: True})
        return COMPLETE
    return AS_THEY_ARE if box.clickedButton() is as_is else None


def why_weak(result: Any, still: list[int]) -> str:
    """Why the keys of ``still`` did not improve, from the completion's result (an
    ``EnrichResult``), in words: offline, not on the Hub, or the record lacked it."""
    if result is None:
        return "the completion failed"
    if result.stopped and not result.completed:
        return f"offline ({result.stopped})" if "offline" not in result.stopped.lower() \
            else result.stopped
    left = set(still)
    unknown = [pid for pid, _t in result.not_found if pid in left]
    if unknown:
        return "not on the Hub" if len(unknown) == len(left) else (
            f"{len(unknown)} of them are not on the Hub")
    failed = [why for pid, _t, why in [*result.unsure, *result.failed] if pid in left]
    if failed:
        return failed[0]
    if result.stopped:
        return result.stopped
    return "the Hub has no author or year for them"


def anyway(context: Context, still: list[int], why: str, action: str) -> bool:
    """Ask whether the weak keys of ``still`` go out anyway; True for "Copy anyway"."""
    keys = [p["citekey"] for p in context.lib.papers(still[:3])]
    box = QMessageBox(QMessageBox.Icon.Warning, "The keys did not improve",
                      f"Completing did not improve {len(still)} provisional "
                      f"key{'s' * (len(still) != 1)} ({', '.join(keys)}"
                      f"{'…' if len(still) > 3 else ''}): {why}.",
                      parent=context.widget)
    box.setInformativeText("Once they leave PaperDesk the keys never change again. "
                           f"{action} them anyway?")
    go = box.addButton(f"{action} anyway", QMessageBox.ButtonRole.DestructiveRole)
    box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    box.exec()
    return box.clickedButton() is go


def keys_ready(context: Context, ids: list[int], then: Callable[[], Any],
               action: str | None = "Copy",
               stopped: Callable[[str], Any] | None = None) -> bool | None:
    """Run ``then`` once the keys of ``ids`` are as good as they will get; True when it
    ran now, False when it runs after a completion, None when the user cancelled.
    ``action`` names what ``then`` does ("Copy", "Export"), for the question asked when
    a completion left a key weak; None: do not ask, only say so (a drag, done again).
    ``stopped`` hears the line said when ``then`` does not run after a completion."""
    weak = context.lib.bibtex.weak_keys(ids) if ids else []
    if not weak:
        then()
        return True
    choice = COMPLETE if always(context) else ask(context, weak)
    if choice is None:
        return None
    if choice == AS_THEY_ARE:
        then()
        return True

    def after(result: Any, failure: str | None) -> None:
        still = context.lib.bibtex.weak_keys(weak)
        if not still:
            context.show_message(f"Keys: {result.summary()}", 8000)
            then()
            return
        why = failure or why_weak(result, still)
        if action is not None and anyway(context, still, why, action):
            then()
            return
        line = (f"{len(still)} key{'s' * (len(still) != 1)} did not improve ({why}); "
                + (f"{action.lower()} stopped, nothing left PaperDesk" if action else
                   "to use them as they are, choose so when asked"))
        context.notify(line)
        if stopped is not None:
            stopped(line)

    def done(changes) -> None:
        after(changes.result, None)

    def failed(message: str) -> None:
        after(None, message)

    context.ops.run("Completing weak keys from Hugging Face",
                    lambda lib, progress, cancel: lib.enrich(weak, progress=progress,
                                                             cancel=cancel),
                    done, failed, undo=True)
    return False


class KeyCheck(Feature):
    """Paper > Complete from Hugging Face > Complete weak keys before they leave."""

    name = "key_check"

    def install(self, context: Context) -> None:
        super().install(context)
        menu = context.features["hub"].menu
        self.toggle = context.menus.add(
            menu, "complete_weak_keys", "Complete &weak keys before they leave, without asking",
            lambda: settings.save({ALWAYS: self.toggle.isChecked()}), checkable=True)
        self.toggle.setChecked(always(context))
