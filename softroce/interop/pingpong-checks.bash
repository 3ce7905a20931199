# Sourced by rc-pingpong.sh and ud-pingpong.sh after lib.bash: the checks of one ping-pong pair's outputs.
#
#   check_pingpong SIZE ITERS
#       both sides printed ITERS iterations and SIZE * ITERS * 2 bytes, no "invalid data" (-c), and each side's
#       remote address is the other side's local address (LID, QPN, PSN, GID; ibv_ud_pingpong's local line has
#       a colon before the GID where the others have a comma).

# The address a side printed on its "  local address:" or "  remote address:" line.
pingpong_address() { sed -n "s/^  $1 address: *//p" "$2" | sed 's/: GID/, GID/'; }

check_pingpong()
{
    local size=$1 iters=$2 log side
    for log in "$SERVER_LOG" "$CLIENT_LOG"
    do
        side=$(basename "$log" .log)
        check "$side: $iters iters" grep -q "^$iters iters in [0-9.]* seconds = " "$log"
        check "$side: $((size * iters * 2)) bytes" grep -q "^$((size * iters * 2)) bytes in [0-9.]* seconds = " "$log"
        check "$side: no invalid data" bash -c "! grep -q 'invalid data' '$log'"
    done
    check "the server learnt the client's address" test -n "$(pingpong_address local "$CLIENT_LOG")" -a \
        "$(pingpong_address remote "$SERVER_LOG")" = "$(pingpong_address local "$CLIENT_LOG")"
    check "the client learnt the server's address" test -n "$(pingpong_address local "$SERVER_LOG")" -a \
        "$(pingpong_address remote "$CLIENT_LOG")" = "$(pingpong_address local "$SERVER_LOG")"
}
