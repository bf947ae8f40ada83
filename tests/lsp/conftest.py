from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_lsp
from pytest_lsp import LanguageClient

from tests.lsp.support import CONFIG, RECORDS


@pytest_lsp.fixture(config=CONFIG)  # type: ignore[untyped-decorator]
async def client(lsp_client: LanguageClient) -> AsyncIterator[None]:
    yield
    try:
        await lsp_client.shutdown_session()
    finally:
        RECORDS.pop(id(lsp_client), None)
