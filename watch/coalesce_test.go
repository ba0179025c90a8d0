package watch

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeTimer is a timer the test fires by hand. Reset and Stop are recorded; nothing fires by
// itself, so no test depends on how fast the machine is.
type fakeTimer struct {
	c      chan time.Time
	mu     sync.Mutex
	resets []time.Duration
	stops  int
}

func newFakeTimer() *fakeTimer { return &fakeTimer{c: make(chan time.Time)} }

func (f *fakeTimer) C() <-chan time.Time { return f.c }
func (f *fakeTimer) Reset(d time.Duration) {
	f.mu.Lock()
	f.resets = append(f.resets, d)
	f.mu.Unlock()
}
func (f *fakeTimer) Stop() {
	f.mu.Lock()
	f.stops++
	f.mu.Unlock()
}
func (f *fakeTimer) resetList() []time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.resets)
}

// step is one move of a coalescer script: send an event, fire a timer, or look at what is offered.
type step struct {
	send *event
	fire string // "quiet" or "overdue"
	// want, when set, takes the offered batch and compares it (paths with their ops, "lost",
	// "err:..." in order); none checks that nothing is offered.
	want []string
	none bool
	// resets, checked with want, is every duration the quiet timer was reset to so far.
	resets []time.Duration
}

func sendC(path string, op Op) step {
	return step{send: &event{change: Change{Path: path, Op: op}}}
}
func sendHold(path string, op Op, hold time.Duration) step {
	return step{send: &event{change: Change{Path: path, Op: op}, hold: hold}}
}
func fire(name string) step { return step{fire: name} }

const q = 300 * time.Millisecond

func TestCoalescer(t *testing.T) {
	tests := []struct {
		desc  string
		steps []step
	}{
		{
			desc: "a burst becomes one batch, each event resetting the quiet timer",
			steps: []step{
				sendC("/s/public/a.html", Create), sendC("/s/public/a.html", Write), sendC("/s/public/b.html", Write),
				{none: true},
				fire("quiet"),
				{want: []string{"/s/public/a.html create|write", "/s/public/b.html write"}, resets: []time.Duration{q, q, q}},
				{none: true},
			},
		},
		{
			desc: "a replaced file gathers every op",
			steps: []step{
				sendC("/s/c/x.md", Remove), sendC("/s/c/x.md", Create), sendC("/s/c/x.md", Write),
				fire("quiet"),
				{want: []string{"/s/c/x.md remove|create|write"}},
			},
		},
		{
			desc: "an event while the batch waits to be taken makes it wait for quiet again",
			steps: []step{
				sendC("/a", Write),
				fire("quiet"),
				sendC("/b", Write),
				{none: true},
				fire("quiet"),
				{want: []string{"/a write", "/b write"}, resets: []time.Duration{q, q}},
			},
		},
		{
			desc: "the delay bound delivers a batch that never goes quiet",
			steps: []step{
				sendC("/log", Write),
				fire("overdue"),
				sendC("/log", Write), sendC("/other", Create),
				{want: []string{"/log write", "/other create"}, resets: []time.Duration{q}},
			},
		},
		{
			desc: "batches after the first start afresh",
			steps: []step{
				sendC("/a", Write), fire("quiet"), {want: []string{"/a write"}},
				sendC("/b", Remove), fire("quiet"), {want: []string{"/b remove"}},
			},
		},
		{
			desc: "a quiet tick with nothing pending offers nothing",
			steps: []step{
				fire("quiet"),
				{none: true},
				sendC("/a", Write), fire("quiet"), {want: []string{"/a write"}},
			},
		},
		{
			desc: "errors and lost events ride with the batch",
			steps: []step{
				{send: &event{err: errors.New("watch: /s/x: permission denied")}},
				{send: &event{lost: true}},
				sendC("/a", Write),
				fire("quiet"),
				{want: []string{"/a write", "lost", "err:watch: /s/x: permission denied"}},
			},
		},
		{
			desc: "a poller's hold lengthens the quiet time for its window only",
			steps: []step{
				sendHold("/a", Write, 2*time.Second),
				sendC("/b", Write),
				fire("quiet"),
				{want: []string{"/a write", "/b write"}, resets: []time.Duration{2 * time.Second, 2 * time.Second}},
				sendC("/c", Write),
				fire("quiet"),
				{want: []string{"/c write"}, resets: []time.Duration{2 * time.Second, 2 * time.Second, q}},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			quiet, overdue := newFakeTimer(), newFakeTimer()
			c := &coalescer{quiet: q, maxDelay: time.Minute, newTimer: func(d time.Duration) timer {
				if d == q {
					return quiet
				}
				return overdue
			}}
			in, out := make(chan event), make(chan *pending)
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { c.run(ctx, in, out); close(done) }()
			defer func() {
				cancel()
				<-done
			}()
			// deadline only keeps a broken coalescer from hanging the test; no step waits on it.
			deadline := time.After(10 * time.Second)
			for i, s := range tc.steps {
				switch {
				case s.send != nil:
					select {
					case in <- *s.send:
					case <-deadline:
						t.Fatalf("step %d: the coalescer does not take events", i)
					}
				case s.fire != "":
					ft := quiet
					if s.fire == "overdue" {
						ft = overdue
					}
					select {
					case ft.c <- time.Time{}:
					case <-deadline:
						t.Fatalf("step %d: the coalescer does not read its %s timer", i, s.fire)
					}
				case s.none:
					select {
					case p := <-out:
						t.Fatalf("step %d: got batch %v, want none yet", i, describe(p))
					default:
					}
				case s.want != nil:
					var p *pending
					select {
					case p = <-out:
					case <-deadline:
						t.Fatalf("step %d: no batch offered, want %v", i, s.want)
					}
					if got := describe(p); !slices.Equal(got, s.want) {
						t.Errorf("step %d: got batch %q, want %q", i, got, s.want)
					}
					if s.resets != nil {
						if got := quiet.resetList(); !slices.Equal(got, s.resets) {
							t.Errorf("step %d: quiet timer reset to %v, want %v", i, got, s.resets)
						}
					}
				}
			}
		})
	}
}

// describe lists a pending set as the script's want does.
func describe(p *pending) []string {
	var out []string
	for path, c := range p.changes {
		out = append(out, fmt.Sprintf("%s %s", path, c.Op))
	}
	slices.Sort(out)
	if p.lost {
		out = append(out, "lost")
	}
	for _, err := range p.errs {
		out = append(out, "err:"+err.Error())
	}
	return out
}

func TestCoalescerStops(t *testing.T) {
	for _, how := range []string{"context canceled", "input closed"} {
		t.Run(how, func(t *testing.T) {
			c := &coalescer{newTimer: func(time.Duration) timer { return newFakeTimer() }}
			in, out := make(chan event), make(chan *pending)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan struct{})
			go func() { c.run(ctx, in, out); close(done) }()
			in <- event{change: Change{Path: "/a", Op: Write}} // pending, never delivered
			if strings.HasPrefix(how, "context") {
				cancel()
			} else {
				close(in)
			}
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("run did not return")
			}
		})
	}
}

func TestOpString(t *testing.T) {
	tests := []struct {
		op   Op
		want string
	}{
		{0, "none"},
		{Create, "create"},
		{Write | Create, "create|write"},
		{Remove | Create | Write, "remove|create|write"},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			if got := tc.op.String(); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
