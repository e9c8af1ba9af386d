// Plays complete legal games of Paths of Glory with Rally the Troops' engine and records them for convert.py.
// Usage: node play.js ENGINE_DIR OUT.json SEED SCENARIO [valiant] [optional_cards]
// A random player picks among the actions view() offers (never undo, rollback or supply-warning flags).
// Each step records the engine's state name, the active role, the action and argument, the log lines it wrote
// and what it changed (piece locations, reduced steps, control, trenches); each game-turn start records the whole
// state (without log and undo), so a converter can write each game-turn's start state from the engine's own.
"use strict"
const fs = require("fs")
const path = require("path")

const [engineDir, out, seedText, scenario, ...flags] = process.argv.slice(2)
if (!engineDir || !out || !seedText || !scenario) {
    console.error("usage: node play.js ENGINE_DIR OUT.json SEED SCENARIO [valiant] [optional_cards]")
    process.exit(2)
}
const rules = require(path.resolve(engineDir, "rules.js"))
const seed = Number(seedText)
const options = { no_supply_warnings: 1 }
for (const f of flags) options[f] = 1
const SKIP = new Set(["undo", "propose_rollback", "flag_supply_warnings"])
const MAX_STEPS = 60000

// The player's own generator (Park-Miller), seeded from the game seed, so a game is repeatable.
let pick = (seed % 2147483646) + 1
function choose(n) { pick = (pick * 48271) % 2147483647; return pick % n }

function snapshot(game) {
    const copy = {}
    for (const [k, v] of Object.entries(game))
        if (!["log", "undo", "rollback", "rollback_state"].includes(k)) copy[k] = v
    return JSON.parse(JSON.stringify(copy))
}

function mapOf(list) { const m = {}; for (let i = 0; i + 1 < list.length; i += 2) m[list[i]] = list[i + 1]; return m }

function diff(before, game) {
    const d = {}
    const moved = []
    for (let p = 0; p < game.location.length; p++)
        if (before.location[p] !== game.location[p]) moved.push([p, before.location[p], game.location[p]])
    if (moved.length) d.m = moved
    const rb = new Set(before.reduced), ra = new Set(game.reduced)
    const red = []
    for (const p of ra) if (!rb.has(p)) red.push([p, 1])
    for (const p of rb) if (!ra.has(p)) red.push([p, 0])
    if (red.length) d.r = red
    const ctl = []
    for (let w = 0; w < game.control.length; w++) {
        const x = (before.control[w] ^ game.control[w]) >>> 0
        if (!x) continue
        for (let b = 0; b < 32; b++) if ((x >>> b) & 1) ctl.push([w * 32 + b, (game.control[w] >>> b) & 1])
    }
    if (ctl.length) d.c = ctl
    for (const side of ["ap", "cp"]) {
        const a = mapOf(before[side].trenches), b = mapOf(game[side].trenches)
        const t = []
        for (const s of new Set([...Object.keys(a), ...Object.keys(b)])) if (a[s] !== b[s]) t.push([Number(s), b[s] || 0])
        if (t.length) d["t" + side] = t
    }
    for (const kind of ["destroyed", "besieged"]) {
        const a = new Set(before.forts[kind]), b = new Set(game.forts[kind])
        const f = []
        for (const x of b) if (!a.has(x)) f.push([x, 1])
        for (const x of a) if (!b.has(x)) f.push([x, 0])
        if (f.length) d["f" + kind[0]] = f
    }
    return d
}

function small(game) {
    return { location: game.location.slice(), reduced: game.reduced.slice(), control: game.control.slice(),
        ap: { trenches: game.ap.trenches.slice() }, cp: { trenches: game.cp.trenches.slice() },
        forts: { destroyed: game.forts.destroyed.slice(), besieged: game.forts.besieged.slice() } }
}

function hasActions(state) {
    const view = rules.view(state, state.active)
    return Object.entries(view.actions || {}).some(([name, arg]) => !SKIP.has(name) && (arg === 1 || (Array.isArray(arg) && arg.length)))
}

let game = rules.setup(seed, scenario, options)
const record = { engine: "rally-the-troops/paths-of-glory", seed, scenario, options, turns: [] }
let current = { turn: game.turn, start: snapshot(game), opening: game.log.slice(), steps: [] }
record.turns.push(current)
let logged = game.log.length
let steps = 0
let lastAttack = null
while (game.state !== "game_over" && game.active !== "None" && steps < MAX_STEPS) {
    const role = game.active
    const view = rules.view(game, role)
    const offered = []
    for (const [name, arg] of Object.entries(view.actions || {})) {
        if (SKIP.has(name)) continue
        if (arg === 1) offered.push([name, undefined])
        else if (Array.isArray(arg)) for (const a of arg) offered.push([name, a])
    }
    if (!offered.length) { record.stalled = { state: game.state, active: role }; break }
    // Never walk into a dead end (the engine offers, say, an SR unit with nowhere to go and no way back): try the
    // pick on a copy first and take another if the copy would offer nothing.
    let pickIndex = choose(offered.length)
    for (let tries = 0; tries < offered.length; tries++) {
        const [n, a] = offered[(pickIndex + tries) % offered.length]
        const copy = rules.action(JSON.parse(JSON.stringify(game)), role, n, a)
        if (copy.state === "game_over" || copy.active === "None" || hasActions(copy)) { pickIndex = (pickIndex + tries) % offered.length; break }
    }
    const [name, arg] = offered[pickIndex]
    const before = small(game)
    const stateName = game.state
    const turnBefore = game.turn
    game = rules.action(game, role, name, arg)
    steps++
    const step = { s: stateName, a: role === "Allied Powers" ? "ap" : "cp", n: name }
    if (arg !== undefined) step.g = arg
    const lines = game.log.slice(logged)
    logged = game.log.length
    if (lines.length) step.L = lines
    Object.assign(step, diff(before, game))
    const attack = game.attack ? JSON.stringify(game.attack) : null
    if (attack && attack !== lastAttack) step.k = JSON.parse(attack)
    lastAttack = attack
    if (game.move) step.v = { initial: game.move.initial, current: game.move.current, pieces: game.move.pieces }
    current.steps.push(step)
    if (game.turn !== turnBefore && game.state !== "game_over") {
        const at = lines.findIndex(line => line.startsWith(".h1 Turn"))
        current = { turn: game.turn, start: snapshot(game), opening: at < 0 ? [] : lines.slice(at), steps: [] }
        record.turns.push(current)
    }
}
record.steps = steps
record.end = { state: game.state, result: game.result || null, victory: game.victory || null, turn: game.turn }
fs.writeFileSync(out, JSON.stringify(record))
console.log(`${out}: seed ${seed} ${scenario} ${flags.join(",") || "-"}: ${steps} steps, ${record.turns.length} game-turns, ${game.state} ${game.victory || ""}`)
