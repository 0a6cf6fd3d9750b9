# Sourced by check.sh once the table has booted (amd64): the match through the real
# devices, the buttons and lamps, the shoe, the power cut, the watchdog.
[[ $ARCH == amd64 ]] || return 0
SIM=/sys/devices/platform/gpio-sim.0/gpiochip0
W=1280; H=800
qmp() {  # qmp JSON: one QMP command
    printf '{"execute":"qmp_capabilities"}\n%s\n' "$1" | socat -t 2 - "UNIX-CONNECT:$RUN/qmp.sock" > /dev/null 2>&1
}
touch_at() {  # touch_at X Y: a tap at screen pixel X,Y (the usb-tablet: absolute 0..32767)
    local x=$(( $1 * 32767 / (W - 1) )) y=$(( $2 * 32767 / (H - 1) ))
    qmp "{\"execute\":\"input-send-event\",\"arguments\":{\"events\":[{\"type\":\"abs\",\"data\":{\"axis\":\"x\",\"value\":$x}},{\"type\":\"abs\",\"data\":{\"axis\":\"y\",\"value\":$y}}]}}"
    sleep 0.2
    qmp '{"execute":"input-send-event","arguments":{"events":[{"type":"btn","data":{"down":true,"button":"left"}}]}}'
    sleep 0.25
    qmp '{"execute":"input-send-event","arguments":{"events":[{"type":"btn","data":{"down":false,"button":"left"}}]}}'
    log "touch $1,$2"
}
press() {  # press GPIO [SECONDS]: an arcade button down (pulled to GND) and up again
    g "echo pull-down > $SIM/sim_gpio$1/pull; sleep ${2:-0.2}; echo pull-up > $SIM/sim_gpio$1/pull"
    log "press GPIO$1"
}
lamps() {  # lamps: "GPIO=value ..." of both seats' lamps (the gin map: 12 13 16, 20 21 22)
    g "for n in 12 13 16 20 21 22; do printf '%s=%s ' \$n \$(cat $SIM/sim_gpio\$n/value); done"
}
journal() { g 'cat /var/lib/rummy-table/current/*.jsonl 2>/dev/null'; }
actions() { journal | grep -c '"type":"action"'; }

# -- the watchdog: a hung app (SIGSTOP) is restarted by systemd --------------------------------
pid0=$(g 'systemctl show -p MainPID --value rummy-table')
r0=$(g 'systemctl show -p NRestarts --value rummy-table')
t=$(now)
g "kill -STOP $pid0"
ok=0
for _ in $(seq 1 90); do
    sleep 1
    pid1=$(g 'systemctl show -p MainPID --value rummy-table' 2> /dev/null)
    r1=$(g 'systemctl show -p NRestarts --value rummy-table' 2> /dev/null)
    if [[ -n $pid1 && $pid1 != 0 && $pid1 != "$pid0" ]] && g 'systemctl is-active -q rummy-table'; then ok=1; break; fi
done
if [[ $ok == 1 ]] && g 'journalctl -b -u rummy-table --no-pager' | grep -q 'Watchdog timeout'; then
    check watchdog ok "SIGSTOP of pid $pid0: watchdog timeout, restarted as pid $pid1 (NRestarts $r0 -> $r1), active again after $(since "$t") s"
else
    check watchdog FAIL "pid $pid0 stopped; after $(since "$t") s MainPID ${pid1:-?}, NRestarts ${r1:-?}, $(g 'journalctl -b -u rummy-table --no-pager' | grep -c 'Watchdog timeout') watchdog lines"
fi

# -- into a real-card match by touch: Touch to play, Gin rummy, Deal! ---------------------------
# (positions on the 1280x800 panel: docs/screenshots/attract-en.png, choice-en.png, seating)
sleep 5
n0=$(g 'ls /var/lib/rummy-table/current/ 2>/dev/null | wc -l')
touch_at 640 560; sleep 3; dump match-1-choice > /dev/null
touch_at 342 170; sleep 3; dump match-2-seating > /dev/null
touch_at 960 735; sleep 4; dump match-3-deal > /dev/null
jfile=$(g 'ls -t /var/lib/rummy-table/current/*.jsonl 2>/dev/null | head -n 1')
if [[ -z $jfile ]]; then
    check match FAIL "no journal in /var/lib/rummy-table/current after the three touches (had $n0 files): $RUN/match-*.png"
else
    check match ok "a match journal $jfile after Touch to play, Gin rummy, Deal!"
fi

# -- the shoe: the host's twin deals 21 cards (gin: 10 each and the upcard) over the serial line
order=(AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AH 2H 3H 4H 5H 6H 7H 8H)
before=$(actions)
for c in "${order[@]}"; do shoe "feed shoe $c"; sleep 0.6; done
deal=
for _ in $(seq 1 30); do
    deal=$(journal | grep -E '"kind":"deal(_read)?"' | tail -n 1)  # real cards: deal_read
    [[ -n $deal ]] && break
    sleep 1
done
dump shoe-dealt > /dev/null
got=$(printf '%s' "$deal" | sed -n 's/.*"cards":"\([^"]*\)".*/\1/p')
if [[ -n $got && $got == "${order[*]}"* ]]; then
    check shoe ok "the 21 cards the twin fed are the journal's deal, in order (actions $before -> $(actions)): $got"
elif [[ -n $got ]]; then
    check shoe FAIL "a deal, but not the fed order: $got"
else
    check shoe FAIL "no deal in the journal after 21 cards; twin: $(tail -n 2 "$RUN/shoe.out" | tr '\n' ' ')"
fi

# -- a button: the non-dealer's DRAW takes (or passes) the upcard; the lamps read back ------------
l0=$(lamps); a0=$(actions); dump button-before > /dev/null
for gpio in 4 17; do press "$gpio"; sleep 2; done
l1=$(lamps); a1=$(actions); dump button-after > /dev/null
if (( a1 > a0 )) && [[ $l0 != "$l1" || $l0 == *=1* ]]; then
    check button ok "DRAW through gpio-sim: journal actions $a0 -> $a1; lamps before [$l0] after [$l1]"
else
    check button FAIL "DRAW through gpio-sim: journal actions $a0 -> $a1; lamps before [$l0] after [$l1]"
fi

# -- a power cut mid-match: kill -9 of QEMU, boot again, the same match ---------------------------
journal > "$RUN/journal-before-cut.jsonl"
nb=$(grep -c '"type":"action"' "$RUN/journal-before-cut.jsonl")
kill -9 "$QPID"; wait "$QPID" 2> /dev/null; QPID=
boot_to_attract cut > /dev/null 2>&1
vm_wait_ssh 120
for _ in $(seq 1 60); do g 'journalctl -b -u rummy-table --no-pager' | grep -q 'resumed ' && break; sleep 1; done
journal > "$RUN/journal-after-cut.jsonl"
resumed=$(g 'journalctl -b -u rummy-table --no-pager' | grep -o 'resumed [0-9a-f]* after [0-9]* actions' | tail -n 1)
if [[ $nb -gt 0 ]] && cmp -s "$RUN/journal-before-cut.jsonl" "$RUN/journal-after-cut.jsonl" && [[ $resumed == *"after $nb actions" ]]; then
    check power-cut ok "kill -9 of QEMU with $nb actions journalled; booted again: journal identical, '$resumed'"
else
    check power-cut FAIL "before: $nb actions; journal identical: $(cmp -s "$RUN/journal-before-cut.jsonl" "$RUN/journal-after-cut.jsonl" && echo yes || echo no); app said: '${resumed:-nothing}'"
fi
