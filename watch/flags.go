package watch

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

// movedFlag is a flag a generator had and its later versions replaced (generators.md).
type movedFlag struct {
	generator string   // the program's name: "hugo"
	commands  []string // the subcommand and its aliases it belongs to; none: any
	name      string   // the flag's long name, without dashes
	short     byte     // its one-letter form, 0 for none
	since     string   // the generator's version that replaced it
	with      []string // the flags that replaced it, in the command line; none: it is the default now
	how       string   // what the generator does now, for the line
}

// movedFlags are the flags robotsmith knows moved. Each is named only when the installed
// generator's own help does not list it (an older generator still has it).
var movedFlags = []movedFlag{
	{
		// gohugoio/hugo#11987, #11992 ("Make the server flag --renderToDisk into
		// --renderToMemory"), in v0.123.0; v0.165.0 answers "unknown flag: --renderToDisk".
		generator: "hugo", commands: []string{"server", "serve"}, name: "renderToDisk", since: "v0.123.0",
		how: "hugo server writes to disk by default (--renderToMemory keeps the pages in memory)",
	},
	{
		// gohugoio/hugo#11088, v0.114.0: --verbose deprecated for --logLevel info; gone by v0.139.0.
		generator: "hugo", name: "verbose", short: 'v', since: "v0.114.0", with: []string{"--logLevel", "info"},
	},
	{
		// The same change: --debug for --logLevel debug.
		generator: "hugo", name: "debug", since: "v0.114.0", with: []string{"--logLevel", "debug"},
	},
}

// Moved is a flag of the generator's command line that the installed generator no longer has.
type Moved struct {
	Flag string // as the command line gives it: "--renderToDisk"
	// Line says so in one line, naming what replaced it: "hugo server --renderToDisk is gone since
	// Hugo v0.123.0, as hugo server writes to disk by default (...): leave it out".
	Line string
}

// MovedFlags finds the flags of cmdline (the generator's program and its arguments, as given
// after `robotsmith watch --`) that the generator replaced and that the installed one does not
// have, and returns args, cmdline with each of them replaced by what replaced it (or left out,
// when what it asked for is the default now): the command as meant, for the installed generator.
//
// help returns the installed generator's help for the flags' command (its argument is that
// command line, "hugo server --help"; RunHelp runs it). It is called only when cmdline has such a
// flag, once per command; a flag its text lists is not moved (an older generator still has it).
// An error from help is returned with what was found before it, and args as found so far.
func MovedFlags(cmdline []string, help func(argv []string) (string, error)) (moved []Moved, args []string, err error) {
	args = slices.Clone(cmdline)
	if len(cmdline) == 0 {
		return nil, args, nil
	}
	prog := strings.TrimSuffix(filepath.Base(cmdline[0]), ".exe")
	helps := map[string]string{}
	for _, mf := range movedFlags {
		if mf.generator != prog {
			continue
		}
		cmd := ""
		if len(mf.commands) > 0 {
			if cmd = subcommand(args[1:], mf.commands); cmd == "" {
				continue
			}
		}
		at := flagAt(args[1:], mf.name, mf.short)
		if at < 0 {
			continue
		}
		text, ok := helps[cmd]
		if !ok {
			argv := []string{cmdline[0]}
			if cmd != "" {
				argv = append(argv, cmd)
			}
			if text, err = help(append(argv, "--help")); err != nil {
				return moved, args, err
			}
			helps[cmd] = text
		}
		if listsFlag(text, mf.name) {
			continue
		}
		given := args[1+at]
		args = slices.Replace(args, 1+at, 2+at, mf.with...)
		moved = append(moved, Moved{Flag: given, Line: mf.line(prog, cmd, given)})
	}
	return moved, args, nil
}

// line is what robotsmith says of the flag given.
func (mf movedFlag) line(prog, cmd, given string) string {
	name := prog
	if cmd != "" {
		name += " " + cmd
	}
	s := name + " " + given + " is gone since " + generatorName(prog) + " " + mf.since
	if len(mf.with) > 0 {
		return s + ": use " + strings.Join(mf.with, " ") + " instead"
	}
	return s + ", as " + mf.how + ": leave it out"
}

func generatorName(prog string) string {
	if prog == "" {
		return prog
	}
	return strings.ToUpper(prog[:1]) + prog[1:]
}

// subcommand is the first argument that is one of the words (a subcommand given with its alias),
// before "--"; "" when none is.
func subcommand(args, words []string) string {
	for _, a := range args {
		if a == "--" {
			return ""
		}
		if slices.Contains(words, a) {
			return a
		}
	}
	return ""
}

// flagAt is the index in args of the flag --name (--name, --name=value) or -short alone, before
// "--"; -1 when it is not there.
func flagAt(args []string, name string, short byte) int {
	for i, a := range args {
		switch {
		case a == "--":
			return -1
		case a == "--"+name, strings.HasPrefix(a, "--"+name+"="):
			return i
		case short != 0 && (a == "-"+string(short) || strings.HasPrefix(a, "-"+string(short)+"=")):
			return i
		}
	}
	return -1
}

// listsFlag reports whether a help text lists the flag --name, as cobra prints it: "--name" then
// a space, a comma, "=" or the end of the line.
func listsFlag(help, name string) bool {
	return regexp.MustCompile(`(?m)--` + regexp.QuoteMeta(name) + `(?:[\s,=]|$)`).MatchString(help)
}

// RunHelp runs a generator's help command line (MovedFlags's help), for at most 30 seconds, and
// returns what it printed on its standard output and error. A help that exits with a failure
// status but prints is still its help.
func RunHelp(ctx context.Context) func(argv []string) (string, error) {
	return func(argv []string) (string, error) {
		ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		var out bytes.Buffer
		cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		if ee := (*exec.ExitError)(nil); errors.As(err, &ee) && out.Len() > 0 {
			err = nil
		}
		return out.String(), err
	}
}
