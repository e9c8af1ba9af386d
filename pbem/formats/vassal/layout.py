"""Where a map's boards sit, and the location name of a map point (``Map.locationName``).

Boards are laid out in a table by the save's ``BoardPicker`` command (or the module's default); a board's
origin is the map's edge plus the widths of the boards left of it and the heights of those above it.
"""

from __future__ import annotations

from dataclasses import dataclass

from pbem.formats.vassal.buildfile import Board, MapDef, Module
from pbem.formats.vassal.commands import BoardLayout, parse_command

OFFBOARD = "offboard"  # VASSAL's Map.offboard text


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
        """``Map.getDeckNameAt``: a deck whose position is exactly (x, y)."""
        for name, deck_x, deck_y, owner in self.map.decks:
            board = next((placed for placed in self.boards if placed.board.name == owner), None)
            if board is not None and board.x is not None:
                origin = (board.x, board.y)
            else:
                origin = (self.map.edge_width, self.map.edge_height)
            if (deck_x + origin[0], deck_y + origin[1]) == (x, y):
                return name
        return None

    def point_of(self, name: str) -> tuple[int, int] | None:
        """The map point of a location name (``Board.getLocation`` inverted to map pixels), first board first."""
        for placed in self.boards:
            grid = placed.board.grid
            if grid is None or placed.x is None:
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
    placed: list[PlacedBoard] = []
    for board, is_reversed, column, row in cells:
        x: int | None = map_def.edge_width
        for left in range(column):
            other = by_cell.get((left, row))
            if other is not None:
                x = None if (x is None or other.size is None) else x + other.size[0]
        y: int | None = map_def.edge_height
        for above in range(row):
            other = by_cell.get((column, above))
            if other is not None:
                y = None if (y is None or other.size is None) else y + other.size[1]
        placed.append(PlacedBoard(board, x, y, is_reversed, column, row))
    return MapLayout(map_def, placed)


def layouts_for(module: Module, commands: list[BoardLayout]) -> dict[str, MapLayout]:
    """Every map's layout, using the last board command seen for each map."""
    latest = {command.map_id: command for command in commands}
    return {map_def.id: map_layout(map_def, latest.get(map_def.id)) for map_def in module.maps}
