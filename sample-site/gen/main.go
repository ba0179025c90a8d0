// Command gen is the sample site's stand-in for `hugo`: run from a
// Hugo-layout site folder, it builds the site into public/ with the standin
// package, so the sample site needs nothing but Go.
//
//	cd sample-site && go run ./gen            # builds . into ./public
//	go run ./sample-site/gen -C sample-site   # the same, from the repository root
//	go run ./sample-site/gen -C /tmp/big -synthetic 10000 -seed 1
//	                                          # writes a synthetic site, then builds it
//
// Exit status: 0 on success, 1 when the build fails, 2 on a usage error.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/robotsmith/robotsmith/sample-site/standin"
)

func main() {
	err := run(context.Background(), os.Args[1:], os.Stdout, os.Stderr)
	switch {
	case err == nil:
	case errors.Is(err, flag.ErrHelp):
		os.Exit(0)
	case errors.As(err, new(usageError)):
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

type usageError struct{ error }

func run(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("C", ".", "the site folder (holding hugo.toml)")
	pages := fs.Int("synthetic", 0, "first write a synthetic site of `N` pages into the (content-less) site folder")
	seed := fs.Int64("seed", 1, "seed for -synthetic")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("unexpected arguments: %q", fs.Args())}
	}
	if *pages > 0 {
		if err := standin.Synthetic(*dir, *pages, *seed); err != nil {
			return err
		}
	}
	if err := standin.Generate(*dir); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "gen: built %s/public\n", *dir)
	return nil
}
