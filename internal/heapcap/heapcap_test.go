package heapcap

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestLimit(t *testing.T) {
	tests := []struct {
		live uint64
		want int64
	}{
		{0, Budget},
		{20 << 20, Budget},              // twice it fits the budget
		{30 << 20, Budget},              // it does not, but 26 MiB is left: the budget binds
		{Budget - room, Budget},         // 33 MiB: the least room the budget leaves
		{Budget - room + 1, Budget + 2}, // a byte more: two bytes more, no jump
		{37 << 20, 61 << 20},            // 24 MiB of room
		{40 << 20, 67 << 20},            // 27 MiB of room
		{1 << 40, 2<<40 - 13<<20},       // a site far larger than the budget
		{math.MaxUint64, math.MaxInt64}, // no overflow
		{(math.MaxInt64-Budget)/2 + Budget - room + 1, math.MaxInt64}, // nor at the edge
		{(math.MaxInt64-Budget)/2 + Budget - room, math.MaxInt64 - 1}, // the largest that is worked out
	}
	for _, tc := range tests {
		if got := Limit(tc.live); got != tc.want {
			t.Errorf("Limit(%d) = %d, want %d", tc.live, got, tc.want)
		}
	}
}

// limit is the runtime's memory limit now.
func limit() int64 { return debug.SetMemoryLimit(-1) }

// waitLimit collects until the limit satisfies ok, or fails the test.
func waitLimit(t *testing.T, what string, ok func(int64) bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !ok(limit()) {
		if time.Now().After(deadline) {
			t.Fatalf("limit %d MiB: %s", limit()>>20, what)
		}
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
	}
}

// TestStartFollowsLive: the limit is the budget while little is live, rises with what is live
// past Budget-room (a collector that ran without end would never let the test finish its
// allocation in time), falls back once that is let go, and is restored by stop.
func TestStartFollowsLive(t *testing.T) {
	before := limit()
	stop := Start(func(string) string { return "" })
	waitLimit(t, "want the budget while little is live", func(l int64) bool { return l == Budget })
	big := make([][]byte, 0, 64)
	for range 64 {
		big = append(big, make([]byte, 2<<20)) // 128 MiB live, in pieces the collector counts
	}
	for i := range big {
		big[i][0] = 1
	}
	waitLimit(t, "want at least twice the 128 MiB live less 16 MiB", func(l int64) bool { return l >= 240<<20 })
	runtime.KeepAlive(big)
	big = nil
	waitLimit(t, "want the budget again once the 128 MiB is let go", func(l int64) bool { return l == Budget })
	stop()
	if got := limit(); got != before {
		t.Errorf("after stop the limit is %d, want %d as before Start", got, before)
	}
	runtime.GC()
	runtime.GC()
	time.Sleep(20 * time.Millisecond)
	if got := limit(); got != before {
		t.Errorf("a collection after stop set the limit to %d, want %d", got, before)
	}
}

// TestStartLeavesUsersChoice: a user who set GOMEMLIMIT or GOGC keeps the collector as they set it.
func TestStartLeavesUsersChoice(t *testing.T) {
	before := limit()
	for _, name := range []string{"GOMEMLIMIT", "GOGC"} {
		stop := Start(func(k string) string {
			if k == name {
				return "100"
			}
			return ""
		})
		runtime.GC()
		if got := limit(); got != before {
			t.Errorf("with %s set, the limit is %d, want %d as the user left it", name, got, before)
		}
		stop()
	}
}
