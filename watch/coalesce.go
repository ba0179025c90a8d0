package watch

import (
	"context"
	"time"
)

// DefaultQuiet is how long the watched folders must be still before a batch is delivered: a
// generator writes a rebuild's files in one burst, and each event of the burst restarts the wait.
const DefaultQuiet = 300 * time.Millisecond

// DefaultMaxDelay bounds how long a batch can be held back by a folder that never goes quiet (a
// log file written to every second): after it, the batch is delivered even though events go on.
const DefaultMaxDelay = 10 * time.Second

// timer is the part of *time.Timer the coalescer uses, so that tests can drive it by hand.
type timer interface {
	C() <-chan time.Time
	Reset(d time.Duration)
	Stop()
}

type realTimer struct{ t *time.Timer }

func (r realTimer) C() <-chan time.Time   { return r.t.C }
func (r realTimer) Reset(d time.Duration) { r.t.Reset(d) }
func (r realTimer) Stop()                 { r.t.Stop() }

// newRealTimer returns a stopped timer. Since Go 1.23 a stopped or reset timer never delivers a
// stale tick, so Reset needs no draining.
func newRealTimer(d time.Duration) timer {
	t := time.NewTimer(d)
	t.Stop()
	return realTimer{t}
}

// event is one thing a backend saw: a change of one path, or a problem, or the loss of events.
type event struct {
	change Change
	err    error // a problem met while watching; change is unset
	lost   bool  // events were lost; change is unset
	// hold, when longer than the coalescer's quiet time, is the quiet time this event asks for: a
	// poller sees a file that is still being written only at its next scan, so it asks the batch to
	// wait past that scan.
	hold time.Duration
}

// pending is the set of changes gathered since the last batch, one entry per path.
type pending struct {
	changes map[string]Change
	lost    bool
	errs    []error
}

func (p *pending) empty() bool { return len(p.changes) == 0 && !p.lost && len(p.errs) == 0 }

func (p *pending) add(ev event) {
	switch {
	case ev.err != nil:
		p.errs = append(p.errs, ev.err)
	case ev.lost:
		p.lost = true
	default:
		if p.changes == nil {
			p.changes = make(map[string]Change)
		}
		c := ev.change
		if old, ok := p.changes[c.Path]; ok {
			c.Op |= old.Op
			c.Dir = c.Dir || old.Dir
		}
		p.changes[c.Path] = c
	}
}

// coalescer turns a stream of events into batches. One goroutine, run, owns the quiet timer and
// the pending set; nothing else touches them, so they need no lock.
type coalescer struct {
	quiet    time.Duration // 0 means DefaultQuiet
	maxDelay time.Duration // 0 means DefaultMaxDelay
	// newTimer makes a stopped timer; nil means a real one. Tests inject timers they fire by hand.
	newTimer func(d time.Duration) timer
}

// run reads events from in until ctx ends or in is closed, and offers each batch on out once no
// event has come for the quiet time (or the batch has waited maxDelay). A batch that is ready but
// not yet taken keeps gathering: an event that arrives meanwhile makes it wait for quiet again
// (the generator is writing again, so its files may be half-written), unless maxDelay has passed.
// What is pending when run returns is dropped: the watcher is closing.
func (c *coalescer) run(ctx context.Context, in <-chan event, out chan<- *pending) {
	quietD, maxD := c.quiet, c.maxDelay
	if quietD <= 0 {
		quietD = DefaultQuiet
	}
	if maxD <= 0 {
		maxD = DefaultMaxDelay
	}
	newTimer := c.newTimer
	if newTimer == nil {
		newTimer = newRealTimer
	}
	quiet, overdue := newTimer(quietD), newTimer(maxD)
	defer quiet.Stop()
	defer overdue.Stop()

	p := &pending{}
	wait := quietD // the quiet time of this window: the longest any of its events asked for
	ready, forced := false, false
	for {
		var offer chan<- *pending
		if ready {
			offer = out
		}
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-in:
			if !ok {
				return
			}
			if p.empty() {
				overdue.Reset(maxD)
			}
			p.add(ev)
			if !forced {
				ready = false
				wait = max(wait, ev.hold)
				quiet.Reset(wait)
			}
		case <-quiet.C():
			ready = !p.empty()
		case <-overdue.C():
			ready, forced = true, true
		case offer <- p:
			p = &pending{}
			wait = quietD
			ready, forced = false, false
			quiet.Stop()
			overdue.Stop()
		}
	}
}
