package watch

import (
	"context"
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/testsupport/testtool"
)

// Help texts as cobra prints them: Hugo v0.122.0's `hugo server --help` listed --renderToDisk;
// v0.123.0 and later list --renderToMemory instead.
const (
	oldServerHelp = "Flags:\n      --renderToDisk             serve all files from disk (default is from memory)\n  -v, --verbose   verbose output\n"
	newServerHelp = "Flags:\n  -M, --renderToMemory             render to memory (mostly useful when running the server)\n      --logLevel string            log level (debug|info|warn|error)\n"
)

func TestMovedFlags(t *testing.T) {
	tests := []struct {
		desc     string
		cmdline  string
		help     string
		want     []string // the flags named moved
		wantArgs string
		asked    []string // the help command lines run
	}{
		{
			desc:     "hugo server --renderToDisk, on a Hugo without it",
			cmdline:  "hugo server --renderToDisk",
			help:     newServerHelp,
			want:     []string{"--renderToDisk"},
			wantArgs: "hugo server",
			asked:    []string{"hugo server --help"},
		},
		{
			desc:     "the alias serve, the flag with a value, other flags kept",
			cmdline:  "/usr/local/bin/hugo serve --disableFastRender --renderToDisk=true -p 1314",
			help:     newServerHelp,
			want:     []string{"--renderToDisk=true"},
			wantArgs: "/usr/local/bin/hugo serve --disableFastRender -p 1314",
			asked:    []string{"/usr/local/bin/hugo serve --help"},
		},
		{
			desc:     "an older Hugo that still has it: nothing said",
			cmdline:  "hugo server --renderToDisk",
			help:     oldServerHelp,
			wantArgs: "hugo server --renderToDisk",
			asked:    []string{"hugo server --help"},
		},
		{
			desc:     "--verbose and -v replaced by --logLevel info; one help for both",
			cmdline:  "hugo server -v --renderToDisk",
			help:     newServerHelp,
			want:     []string{"--renderToDisk", "-v"},
			wantArgs: "hugo server --logLevel info",
			asked:    []string{"hugo server --help", "hugo --help"},
		},
		{
			desc:     "--debug replaced by --logLevel debug",
			cmdline:  "hugo --watch --debug",
			help:     newServerHelp,
			want:     []string{"--debug"},
			wantArgs: "hugo --watch --logLevel debug",
			asked:    []string{"hugo --help"},
		},
		{
			desc:     "no moved flag: the generator is not asked",
			cmdline:  "hugo server --disableFastRender",
			help:     newServerHelp,
			wantArgs: "hugo server --disableFastRender",
		},
		{
			desc:     "--renderToDisk outside hugo server is not the server's flag",
			cmdline:  "hugo --renderToDisk",
			help:     newServerHelp,
			wantArgs: "hugo --renderToDisk",
		},
		{
			desc:     "after -- it is not Hugo's",
			cmdline:  "hugo server -- --renderToDisk",
			help:     newServerHelp,
			wantArgs: "hugo server -- --renderToDisk",
		},
		{
			desc:     "another program",
			cmdline:  "jekyll serve --renderToDisk",
			help:     newServerHelp,
			wantArgs: "jekyll serve --renderToDisk",
		},
	}
	for _, tc := range tests {
		t.Run(tc.desc, func(t *testing.T) {
			var asked []string
			help := func(argv []string) (string, error) {
				asked = append(asked, strings.Join(argv, " "))
				return tc.help, nil
			}
			moved, args, err := MovedFlags(strings.Fields(tc.cmdline), help)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range moved {
				got = append(got, m.Flag)
				if strings.Contains(m.Line, "\n") || !strings.Contains(m.Line, m.Flag) {
					t.Errorf("line %q: want one line naming %s", m.Line, m.Flag)
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.want) {
				t.Errorf("moved = %q, want %q", got, tc.want)
			}
			if g := strings.Join(args, " "); g != tc.wantArgs {
				t.Errorf("args = %q, want %q", g, tc.wantArgs)
			}
			if !slices.Equal(asked, tc.asked) {
				t.Errorf("help asked for %q, want %q", asked, tc.asked)
			}
		})
	}
}

func TestMovedFlagsHelpFails(t *testing.T) {
	boom := errors.New("hugo: not found")
	moved, args, err := MovedFlags([]string{"hugo", "server", "--renderToDisk"}, func([]string) (string, error) { return "", boom })
	if !errors.Is(err, boom) || len(moved) != 0 || strings.Join(args, " ") != "hugo server --renderToDisk" {
		t.Errorf("MovedFlags = %v, %q, %v; want nothing moved, the command line as given, and help's error", moved, args, err)
	}
}

// TestMovedFlagsHugo runs the real Hugo: v0.165.0 has no --renderToDisk (`hugo server
// --renderToDisk` prints its whole usage, then "ERROR command error: unknown flag:
// --renderToDisk", and exits 1), so robotsmith names it in one line, and the command line it
// gives back is one that Hugo accepts.
func TestMovedFlagsHugo(t *testing.T) {
	hugo, _ := testtool.Hugo(t)
	moved, args, err := MovedFlags([]string{hugo, "server", "--renderToDisk"}, RunHelp(context.Background()))
	if err != nil {
		t.Fatal(err)
	}
	if len(moved) != 1 || moved[0].Flag != "--renderToDisk" {
		t.Fatalf("moved = %+v, want --renderToDisk", moved)
	}
	want := "hugo server --renderToDisk is gone since Hugo v0.123.0, as hugo server writes to disk by default (--renderToMemory keeps the pages in memory): leave it out"
	if moved[0].Line != want {
		t.Errorf("line:\n got %q\nwant %q", moved[0].Line, want)
	}
	if !slices.Equal(args, []string{hugo, "server"}) {
		t.Errorf("args = %q, want %q", args, []string{hugo, "server"})
	}
	// Hugo accepts the flags of the command line given back: its help, with them, succeeds.
	out, err := exec.Command(hugo, append(args[1:], "--help")...).CombinedOutput()
	if err != nil || strings.Contains(string(out), "unknown flag") {
		t.Errorf("%s --help: %v\n%s", strings.Join(args, " "), err, out)
	}
	// The flags Hugo has are not named.
	moved, _, err = MovedFlags([]string{hugo, "server", "--renderToMemory", "--logLevel", "info"}, RunHelp(context.Background()))
	if err != nil || len(moved) != 0 {
		t.Errorf("MovedFlags(hugo server --renderToMemory) = %+v, %v; want none", moved, err)
	}
}
