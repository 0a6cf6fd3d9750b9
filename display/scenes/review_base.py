"""What the gin and contract reviews share: continue by touch or by DRAW on a human seat's
buttons, the DRAW lamps lit meanwhile, and the headless runs going straight on."""

from __future__ import annotations

from display.scenes.base import Scene

HEADLESS_PAUSE = 0.0


class ReviewScene(Scene):
    """Base of the hand/deal reviews: :meth:`proceed` deals the next hand or ends the match."""

    def __init__(self, app) -> None:
        super().__init__(app)
        self.t0 = app.clock()

    @property
    def m(self):
        return self.app.match

    def proceed(self) -> None:
        self.app.hw.all_lamps_off()
        if self.m.is_over:
            self.app.after_match()
            return
        self.m.continue_after_review()
        self.app.show_match()

    def on_button(self, event) -> None:
        if event.edge == "press" and event.call == "draw" and self.m.is_human(event.seat):
            self.proceed()

    def update(self, now: float) -> None:
        super().update(now)
        if self.app.headless and self.app.frames > 0 and not self.dirty and now - self.t0 >= HEADLESS_PAUSE:
            self.proceed()
        if self.app.match is not None and self.app.scene is self:
            for seat in range(len(self.m.seats)):
                self.app.hw.set_lamps(seat, draw=self.m.is_human(seat))
