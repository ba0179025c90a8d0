package rules

import (
	"fmt"
	"strings"
	"testing"
)

// agentInputs are n inputs naming n distinct agents, each at its own line of content/a.md.
func agentInputs(n int, kind Kind) []Input {
	in := make([]Input, n)
	for i := range in {
		name := fmt.Sprintf("x%06d", i)
		in[i] = Input{Agent: name, Value: "noindex", Source: Source{Kind: kind, File: "content/a.md", Line: 4 + i, Key: "robots." + name}}
	}
	return in
}

// TestAgentLimit: a front matter or a config names at most MaxAgents agents (SPEC §10: a front
// matter naming 100,000 agents is read in seconds and tens of MiB, or refused with a clear limit);
// the error names the first agent over the limit at its file:line. An agent named many times counts
// once.
func TestAgentLimit(t *testing.T) {
	over := fmt.Sprintf("content/a.md:%d: front matter robots.x%06d: more than %d agent names", 4+MaxAgents, MaxAgents, MaxAgents)
	overRule := fmt.Sprintf("content/a.md:%d: rule 1: more than %d agent names", 4+MaxAgents, MaxAgents)
	many := agentInputs(1, FromFrontMatter)
	for range 5000 {
		many = append(many, many[0])
	}
	for _, tc := range []struct {
		desc string
		in   []Input
		cfg  bool // the inputs are a config rule's, not a front matter's
		err  string
	}{
		{"at the limit", agentInputs(MaxAgents, FromFrontMatter), false, ""},
		{"one over", agentInputs(MaxAgents+1, FromFrontMatter), false, over},
		{"100,000", agentInputs(100000, FromFrontMatter), false, over},
		{"one agent many times", many, false, ""},
		{"a config at the limit", agentInputs(MaxAgents, FromRule), true, ""},
		{"a config one over", agentInputs(MaxAgents+1, FromRule), true, overRule},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			var err error
			if tc.cfg {
				_, err = New(Config{Rules: []Rule{{Paths: []string{"/**"}, Values: tc.in, Source: Source{Kind: FromRule, File: "content/a.md", Line: 2, Rule: 1}}}})
			} else {
				_, _, err = Compile(tc.in)
			}
			switch {
			case tc.err == "" && err != nil:
				t.Errorf("unexpected error %v", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Errorf("error: got %v, want it to hold %q", err, tc.err)
			}
		})
	}
}

// TestAgentLimitCost: refusing a front matter over the limit costs what reading the limit does,
// however many agents it names.
func TestAgentLimitCost(t *testing.T) {
	small, large := agentInputs(2*MaxAgents, FromFrontMatter), agentInputs(100000, FromFrontMatter)
	a := testing.AllocsPerRun(3, func() { Compile(small) })
	b := testing.AllocsPerRun(3, func() { Compile(large) })
	if b > 1.2*a {
		t.Errorf("Compile allocates %.0f times for %d agents, %.0f for %d: want about the same (refused at %d)", a, len(small), b, len(large), MaxAgents)
	}
}
