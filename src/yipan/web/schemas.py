"""The JSON the API reads, checked by pydantic (unknown fields are errors, sizes are capped)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

MAX_MOVE_TEXT = 64
MAX_TIME = 30.0  # seconds: the longest search a request may ask for

MoveText = Annotated[str, Field(max_length=MAX_MOVE_TEXT)]


class StateRequest(BaseModel):
    """A position: the moves from the start, in the game's notation, and the game's options."""

    model_config = ConfigDict(extra="forbid")

    # no cap on the length here: the body's size is capped, and each game has its own cap
    moves: list[MoveText] = Field(default_factory=list)
    options: dict[str, Any] = Field(default_factory=dict, max_length=32)
    # whose eyes the board is drawn for (a game of hidden cards shows that seat only its own);
    # None: an onlooker who sees everything
    viewer: int | None = Field(None, ge=0, le=1)


class LimitRequest(BaseModel):
    """How long a search may run: seconds (capped), and optionally plies and nodes."""

    model_config = ConfigDict(extra="forbid")

    time: float = Field(1.0, gt=0, le=MAX_TIME)
    depth: int | None = Field(None, ge=1, le=200)
    nodes: int | None = Field(None, ge=1, le=1_000_000_000)


class AnalyzeRequest(StateRequest):
    """A search of a position: which engine, how long, and whether to value every move."""

    engine: str = Field("alphabeta", max_length=32)
    limit: LimitRequest = Field(default_factory=lambda: LimitRequest.model_validate({}))
    analysis: bool = False
    level: str | None = Field(None, max_length=32)
    seed: int | None = Field(None, ge=0, le=2**63 - 1)
