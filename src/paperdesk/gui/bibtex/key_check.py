"""Keys ready before they freeze: a paper's key freezes when it leaves PaperDesk (copied,
dragged out, exported). A provisional key made without a name or a year (``actions``,
``deepa``) would freeze weak, before a completion from the Hub could improve it.

``keys_ready(context, ids, then)`` runs ``then`` (which lets the keys out) at once
when no key among ``ids`` is weak. Otherwise it offers to complete those papers
from the Hub first (Complete first / As they are / Cancel, with "always complete
first"), or completes them without asking when the user turned that on
(Paper > Complete from Hugging Face > Complete weak keys before they leave); the
completion is one undoable job on the worker, and ``then`` runs after it.
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


def keys_ready(context: Context, ids: list[int], then: Callable[[], Any]) -> bool | None:
    """Run ``then`` once the keys of ``ids`` are as good as they will get; True when it
    ran now, False when it runs after a completion, None when the user cancelled."""
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

    def done(changes) -> None:
        context.show_message(f"Keys: {changes.result.summary()}", 8000)
        then()

    def failed(message: str) -> None:
        context.notify(f"{message}; the keys stay as they were")
        then()

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
