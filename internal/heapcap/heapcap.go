// Package heapcap keeps robotsmith's memory within its budget on the sites it is made for, without
// making the collector work without end on a site larger than that.
//
// A run keeps a small record per file, about 30 MB at 100,000 pages, but reading and deciding
// allocate hundreds of megabytes that live for a moment. Left to Go's default (GOGC=100) the
// collector lets the heap reach twice what was live at its last count, and what the reading
// workers allocate while it counts is counted as live: the heap of a 100,000-page run reached
// 76 MB and its resident memory 100 MiB, three times what the run keeps. A memory limit makes the
// collector run sooner as the heap nears it, which is the one knob Go offers for this: the runtime
// has no setting that says "twice what is live, but no more than the budget" alone, so the limit
// is kept at the budget while what is live leaves the collector room enough under it, and rises
// twice as fast as what is live once it does not (Limit), worked out again after every
// collection. On a small site nothing changes; on a large one the collector runs somewhat more
// often instead of letting garbage pile up; on a site larger than the budget was made for, it
// does what the default does.
package heapcap

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// Budget is the memory robotsmith means to stay within (the runtime's count of what it holds, a
// few MiB under the resident set): a 100,000-page site keeps about half of it live. What the
// resident set holds besides is mostly the binary's own pages, outside the runtime's count: 7 MiB,
// and 10.5 MiB since watch --serve linked net/http (its packages' init functions fault their
// code in, whether or not anything is served), so the budget gave those 3 MiB back to keep a
// 100,000-page run within 64 MiB resident.
const Budget = 53 << 20

// room is what the budget leaves above what is live: it binds while at most Budget-room (33 MiB) is
// live. Twice what is live, Go's default goal, would let it bind only while 28 MiB is, and a
// 100,000-page run counts 31-37 MiB live while it reads its sources (what the reading workers
// allocate during a count is counted): the limit then rose to 72-82 MiB. Out of the room come the
// runtime's own memory (12-15 MiB at that size: spans partly used, its metadata, stacks) and what
// is allocated between two collections, so near 33 MiB the collector runs often (a 100,000-page
// build: 352 collections, against about 100 for check); that is the budget's price.
const room = 20 << 20

// Limit is the memory limit for a run whose live heap is live bytes: the budget while it leaves
// the collector room, and past that the budget and twice what is live beyond Budget-room, so that
// the room grows as fast as what is live. The limit is then twice what is live less 13 MiB: a site
// larger than the budget was made for gets nearly Go's default goal, never a collector that runs
// without end; and a count a little over 33 MiB raises the limit a little, not to twice what is
// live at once (82 MiB for 37 MiB live, which is what the 100,000-page build's peak was).
func Limit(live uint64) int64 {
	const over = Budget - room
	if live <= over {
		return Budget
	}
	if live > (math.MaxInt64-Budget)/2+over {
		return math.MaxInt64
	}
	return int64(Budget + 2*(live-over))
}

// Start sets the runtime's memory limit to Limit of what is live and updates it after every
// collection, until stop is called, which restores the limit there was. It does nothing when the
// user set GOMEMLIMIT or GOGC (getenv is os.Getenv): the user's choice of the collector's trade
// stands as they made it.
func Start(getenv func(string) string) (stop func()) {
	if getenv("GOMEMLIMIT") != "" || getenv("GOGC") != "" {
		return func() {}
	}
	t := &tracker{sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
	t.before = debug.SetMemoryLimit(Limit(0))
	t.arm()
	return func() {
		t.stopped.Store(true)
		debug.SetMemoryLimit(t.before)
	}
}

// tracker updates the limit after every collection.
type tracker struct {
	sample  []metrics.Sample
	before  int64 // the limit before Start
	stopped atomic.Bool
	updates atomic.Int64 // how many times the limit was worked out again (tests)
}

// arm asks to be told of the next collection: a cleanup of an object nothing keeps runs once a
// collection has found it unreachable, and it arms the next one. The runtime has no other way to
// tell a program that a collection ended.
func (t *tracker) arm() {
	runtime.AddCleanup(&sentinel{}, func(t *tracker) {
		if t.stopped.Load() {
			return
		}
		metrics.Read(t.sample)
		if t.sample[0].Value.Kind() == metrics.KindUint64 {
			debug.SetMemoryLimit(Limit(t.sample[0].Value.Uint64()))
		}
		t.updates.Add(1)
		t.arm()
	}, t)
}

// sentinel is the object whose collection says a collection ended; it holds a pointer so that the
// allocator gives it a block of its own (a small object without pointers may share one, and be
// kept alive by its neighbours).
type sentinel struct{ _ *byte }
