"""The command contract in wrap mode: the sandbox in front of a user's existing memory handler.

The handler wrapped is a complete memory tool of its own (here the sandbox's SDK
tool over an in-memory store, with the same policy); what the model sees through
the wrapper must be exactly what it sees from a store.
"""

from __future__ import annotations

import pytest

from sandbox import Sandbox
from sandbox.decision import ListAuditSink
from sandbox.integrations.anthropic import SandboxedMemoryTool
from sandbox.policy import Policy
from sandbox.storage import InMemoryStorage
from tests.contract.contract import CommandContract, MakeTool, Tool


class TestWrapMode(CommandContract):
    @pytest.fixture
    def make_tool(self) -> MakeTool:
        def make(policy: Policy) -> Tool:
            storage = InMemoryStorage()
            handler = SandboxedMemoryTool(Sandbox(policy=policy, storage=storage, audit=ListAuditSink()))
            audit = ListAuditSink()
            return Tool(storage, SandboxedMemoryTool.wrap(handler, policy=policy, audit=audit).sandbox, audit)

        return make
