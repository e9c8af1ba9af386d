"""Where a map's boards sit, and the location name of a map point (``Map.locationName``).

Boards are laid out in a table by the save's ``BoardPicker`` command (or the module's default); a board's
origin is the map's edge plus the widths of the boards left of it and the heights of those above it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.formats.vassal.buildfile import Board, MapDef, Module
from pbem.formats.vassal.commands import BoardLayout, parse_command

OFFBOARD = "offboard"  # VASSAL's Map.offboard text
# No map is ten million pixels across: a point further out comes from a hostile file and is offboard.
MAX_COORDINATE = 10_000_000
MAX_NAMED_POINTS = 200_000  # points whose names are kept at once


@dataclass(slots=True)
class PlacedBoard:
    board: Board
    x: int | None  # origin in map pixels; None when a board before it has no known size
    y: int | None
    reversed: bool
    column: int
    row: int

    def contains(self, x: int, y: int) -> bool:
        if self.x is None or self.y is None:
            return False
        size = self.board.size
        if size is None:  # unmeasured board: everything right of and below its origin
            return x >= self.x and y >= self.y
        return self.x <= x < self.x + size[0] and self.y <= y < self.y + size[1]


@dataclass(slots=True)
class MapLayout:
    """A map's boards as placed in one game."""

    map: MapDef
    boards: list[PlacedBoard]
    # Every point named once per game: a log moves pieces between the same few points thousands of times.
    names: dict[tuple[int, int], str] = field(default_factory=dict, repr=False, compare=False)
    decks: dict[tuple[int, int], str] | None = field(default=None, repr=False, compare=False)

    def find_board(self, x: int, y: int) -> PlacedBoard | None:
        known = [placed for placed in self.boards if placed.board.size is not None]
        unknown = [placed for placed in self.boards if placed.board.size is None]
        for placed in known + unknown:
            if placed.contains(x, y):
                return placed
        return None

    def board_point(self, x: int, y: int) -> tuple[PlacedBoard, tuple[int, int]] | None:
        placed = self.find_board(x, y)
        if placed is None:
            return None
        local_x, local_y = x - placed.x, y - placed.y
        if placed.reversed and placed.board.size:
            local_x, local_y = placed.board.size[0] - local_x, placed.board.size[1] - local_y
        return placed, (local_x, local_y)

    def location_name(self, x: int, y: int) -> str:
        """The name VASSAL gives map point (x, y): a deck's, a grid location, a zone or region name, or ``offboard``."""
        if abs(x) > MAX_COORDINATE or abs(y) > MAX_COORDINATE:
            return OFFBOARD
        name = self.names.get((x, y))
        if name is None:
            if len(self.names) >= MAX_NAMED_POINTS:
                self.names.clear()
            name = self.names[(x, y)] = self._location_name(x, y)
        return name

    def _location_name(self, x: int, y: int) -> str:
        deck = self.deck_at(x, y)
        if deck is not None:
            return deck
        found = self.board_point(x, y)
        if found is None:
            return OFFBOARD
        placed, point = found
        grid = placed.board.grid
        name = grid.location_name(point, placed.board.size) if grid is not None else None
        return name if name is not None else OFFBOARD

    def deck_at(self, x: int, y: int) -> str | None:
        """``Map.getDeckNameAt``: a deck whose position is exactly (x, y) (the first one listed)."""
        if self.decks is None:
            boards: dict[str, PlacedBoard] = {}
            for placed in self.boards:
                boards.setdefault(placed.board.name, placed)
            self.decks = {}
            for name, deck_x, deck_y, owner in self.map.decks:
                board = boards.get(owner)
                if board is not None and board.x is not None:
                    origin = (board.x, board.y)
                else:
                    origin = (self.map.edge_width, self.map.edge_height)
                self.decks.setdefault((deck_x + origin[0], deck_y + origin[1]), name)
        return self.decks.get((x, y))

    def point_of(self, name: str) -> tuple[int, int] | None:
        """The map point of a location name (``Board.getLocation`` inverted to map pixels), first board first."""
        for placed in self.boards:
            grid = placed.board.grid
            if grid is None or placed.x is None or placed.y is None:
                continue
            point = grid.point_of(name, placed.board.size)
            if point is None:
                continue
            local_x, local_y = point
            if placed.reversed and placed.board.size:
                local_x, local_y = placed.board.size[0] - local_x, placed.board.size[1] - local_y
            return placed.x + local_x, placed.y + local_y
        return None


def map_layout(map_def: MapDef, command: BoardLayout | None = None) -> MapLayout:
    """Lay out ``map_def``'s boards as ``command`` says, else as its default, else its first board alone."""
    if command is None and map_def.default_layout:
        parsed = parse_command(map_def.default_layout)
        if isinstance(parsed, BoardLayout):
            command = parsed
    cells: list[tuple[Board, bool, int, int]] = []
    if command is not None:
        for name, is_reversed, column, row in command.boards:
            board = map_def.board(name)
            if board is not None:
                cells.append((board, is_reversed, column, row))
    if not cells and map_def.boards:
        cells = [(map_def.boards[0], False, 0, 0)]
    by_cell = {(column, row): board for board, _, column, row in cells}
    # A board's origin adds up the boards before it in its row (widths) and column (heights).  Summed per
    # row and column over the boards there are, not over every cell index: a hostile log may put a board
    # at row 10**12.
    lefts = _offsets(by_cell, along=0, extent=0, start=map_def.edge_width)
    aboves = _offsets(by_cell, along=1, extent=1, start=map_def.edge_height)
    placed = [PlacedBoard(board, lefts[(column, row)], aboves[(column, row)], is_reversed, column, row)
              for board, is_reversed, column, row in cells]
    return MapLayout(map_def, placed)


def _offsets(by_cell: dict[tuple[int, int], Board], along: int, extent: int, start: int) -> dict:
    """For each cell, ``start`` plus the sizes (``extent``: 0 width, 1 height) of the boards before it on
    its line (``along``: 0 a row, boards to its left; 1 a column, boards above it); ``None`` once a board
    before it has no known size."""
    lines: dict[int, list[tuple[int, Board]]] = {}
    for cell, board in by_cell.items():
        lines.setdefault(cell[1 - along], []).append((cell[along], board))
    out: dict[tuple[int, int], int | None] = {}
    for line, boards in lines.items():
        total: int | None = start
        for position, board in sorted(boards, key=lambda item: item[0]):
            cell = (position, line) if along == 0 else (line, position)
            out[cell] = total
            if position >= 0:  # VASSAL adds the cells from 0 up: a board at a negative index moves no other
                total = None if (total is None or board.size is None) else total + board.size[extent]
    return out


def layouts_for(module: Module, commands: list[BoardLayout]) -> dict[str, MapLayout]:
    """Every map's layout, using the last board command seen for each map."""
    latest = {command.map_id: command for command in commands}
    return {map_def.id: map_layout(map_def, latest.get(map_def.id)) for map_def in module.maps}
