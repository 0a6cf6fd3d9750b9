"""``rummy-table`` command line: one entry point, a subcommand per job.

Each subcommand lives in its own module and takes ``argv`` (the words after the
subcommand); modules are imported only when their subcommand runs, so ``replay`` never
loads pygame and ``shoe-sim`` never loads the display.
"""

from __future__ import annotations

import importlib
import sys

COMMANDS: dict[str, tuple[str, str]] = {
    "sim": ("display.main:sim_main", "open the desktop simulator (window, simulated hardware)"),
    "kiosk": ("display.main:kiosk_main", "run fullscreen on the table with real GPIO"),
    "play": ("rummy.textgame:main", "a text-mode game of computer players"),
    "replay": ("rummy.replay_cli:main", "print a recorded game hand by hand"),
    "shoe-sim": ("device.shoe.sim:main", "a simulated card shoe on a pseudo-terminal"),
    "diag": ("device.diag:main", "live diagnostics of buttons, lamps and the card shoe"),
    "config": ("display.table.config:main",
               "check the configuration file, set or hash the operator PIN"),
    "records": ("display.records_cli:main",
                "finished games: list, leaderboard, recall, export CSV, import journals"),
    "league": ("league.cli:main", "league server: migrate, venues, tables, players, ratings"),
}


def usage() -> str:
    lines = ["usage: rummy-table COMMAND [options]", "", "commands:"]
    lines += [f"  {name:<10} {help_}" for name, (_, help_) in COMMANDS.items()]
    lines += ["", "rummy-table COMMAND --help shows the options of one command."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(usage())
        return 0
    name, rest = argv[0], argv[1:]
    if name not in COMMANDS:
        print(f"rummy-table: unknown command {name!r}\n\n{usage()}", file=sys.stderr)
        return 2
    module_name, func_name = COMMANDS[name][0].split(":")
    func = getattr(importlib.import_module(module_name), func_name)
    return int(func(rest) or 0)


if __name__ == "__main__":
    sys.exit(main())
