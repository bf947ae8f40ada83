"""Work off the event loop: one daemon thread per job, its result delivered as a future.

The fixes (libcst) and verify runs take from a fraction of a second to minutes; on the event
loop they would stall every other request. A daemon thread never blocks interpreter exit, so a
job still running when the client goes away cannot keep the server process alive.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def spawn(fn: Callable[[], T], name: str) -> tuple[asyncio.Future[T], threading.Thread]:
    """Run `fn` in a daemon thread (never blocks interpreter exit); await the future."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[T] = loop.create_future()

    def deliver(ok: bool, value: Any) -> None:
        if future.done():
            return
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value)

    def target() -> None:
        try:
            value = fn()
        except BaseException as exc:
            if not loop.is_closed():
                loop.call_soon_threadsafe(deliver, False, exc)
            return
        if not loop.is_closed():
            loop.call_soon_threadsafe(deliver, True, value)

    thread = threading.Thread(target=target, name=name, daemon=True)
    thread.start()
    return future, thread
