package markers

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/robotsmith/robotsmith/problem"
)

const blk = Begin + "\nUser-agent: GPTBot\nDisallow: /\n" + End + "\n"

func TestFind(t *testing.T) {
	for _, tc := range []struct {
		desc string
		in   string
		want []Span
	}{
		{"empty file", "", nil},
		{"no markers", "User-agent: *\nDisallow:\n", nil},
		{"one block", "a\n" + Begin + "\nb\n" + End + "\nc\n",
			[]Span{{Start: 2, End: 2 + len(Begin) + 3 + len(End) + 1, Line: 2, EndLine: 4, Closed: true}}},
		{"indented markers with CR", "  " + Begin + " \r\nx\r\n\t" + End + "\r\n",
			[]Span{{Start: 0, End: len("  " + Begin + " \r\nx\r\n\t" + End + "\r\n"), Line: 1, EndLine: 3, Closed: true}}},
		{"end marker without line break", Begin + "\n" + End,
			[]Span{{Start: 0, End: len(Begin + "\n" + End), Line: 1, EndLine: 2, Closed: true}}},
		{"begin marker after a byte order mark", "\xef\xbb\xbf" + Begin + "\n" + End + "\n",
			[]Span{{Start: 0, End: 3 + len(Begin) + 1 + len(End) + 1, Line: 1, EndLine: 2, Closed: true}}},
		{"unclosed block runs to the end", "a\n" + Begin + "\nb\n",
			[]Span{{Start: 2, End: 2 + len(Begin) + 3, Line: 2}}},
		{"begin inside a block is an ordinary line", Begin + "\n" + Begin + "\n" + End + "\n",
			[]Span{{Start: 0, End: 2*len(Begin) + 2 + len(End) + 1, Line: 1, EndLine: 3, Closed: true}}},
		{"end outside a block is an ordinary line", End + "\n", nil},
		{"marker text inside a longer line is not a marker", "x " + Begin + "\n# robotsmith: beginning\n", nil},
		{"two blocks", blk + blk, []Span{
			{Start: 0, End: len(blk), Line: 1, EndLine: 4, Closed: true},
			{Start: len(blk), End: 2 * len(blk), Line: 5, EndLine: 8, Closed: true}}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			got := Find([]byte(tc.in))
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("Find(%q)\n got %+v\nwant %+v", tc.in, got, tc.want)
			}
		})
	}
}

func TestMerge(t *testing.T) {
	for _, tc := range []struct {
		desc, existing, block, want string
	}{
		{"missing file is created", "", blk, blk},
		{"appended after a blank line", "User-agent: *\nDisallow: /x/\n", blk, "User-agent: *\nDisallow: /x/\n\n" + blk},
		{"no trailing line break", "Sitemap: /a.xml", blk, "Sitemap: /a.xml\n\n" + blk},
		{"already a blank line", "a\n\n", blk, "a\n\n" + blk},
		{"CRLF blank line kept as it is", "a\r\n\r\n", blk, "a\r\n\r\n" + blk},
		{"replaced in place, user lines kept", "# mine\r\n" + Begin + "\nold\n" + End + "\nUser-agent: x\nDisallow:", blk,
			"# mine\r\n" + blk + "User-agent: x\nDisallow:"},
		{"later blocks removed", "a\n" + blk + "b\n" + blk + "c\n", Begin + "\nnew\n" + End + "\n",
			"a\n" + Begin + "\nnew\n" + End + "\nb\nc\n"},
		{"empty block removes the block", "a\n" + blk + "b\n", "", "a\nb\n"},
		{"empty block leaves a file without one alone", "a", "", "a"},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			out, err := Merge([]byte(tc.existing), []byte(tc.block))
			if err != nil {
				t.Fatal(err)
			}
			if got := string(out); got != tc.want {
				t.Errorf("Merge(%q, %q)\n got %q\nwant %q", tc.existing, tc.block, got, tc.want)
			}
		})
	}
}

// TestMergeUnclosed: a begin marker with no end marker after it is an error
// naming its line, and nothing is merged: taking the block to run to the end
// of the file would delete the user's lines after it (a robots.txt's rules, a
// _headers file's rules).
func TestMergeUnclosed(t *testing.T) {
	for _, tc := range []struct {
		desc     string
		existing string
		line     int
	}{
		{"begin, then the user's lines", "User-agent: *\n" + Begin + "\nold\nUser-agent: x\nDisallow: /\n", 2},
		{"begin at the end of the file", "a\n  " + Begin, 2},
		{"a closed block, then an open one", blk + "b\n" + Begin + "\nc\n", 6},
		{"CRLF after a byte order mark", "\xef\xbb\xbf" + Begin + "\r\nx\r\n", 1},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			out, err := Merge([]byte(tc.existing), []byte(blk))
			var me *Error
			if !errors.As(err, &me) || !errors.Is(err, ErrUnclosed) {
				t.Fatalf("got %q, %v; want an *Error", out, err)
			}
			if me.Line != tc.line || out != nil {
				t.Errorf("got line %d and %d bytes, want line %d and none", me.Line, len(out), tc.line)
			}
			me.File = "public/robots.txt"
			if want := fmt.Sprintf("public/robots.txt:%d: ", tc.line); !strings.HasPrefix(err.Error(), want) {
				t.Errorf("got %q, want it to start with %q", err, want)
			}
		})
	}
}

func TestSpanContains(t *testing.T) {
	s := Find([]byte("a\n" + blk + "b\n"))[0]
	for off, want := range map[int]bool{0: false, 1: false, 2: true, 1 + len(blk): true, 2 + len(blk): false} {
		if got := s.Contains(off); got != want {
			t.Errorf("Contains(%d) = %v, want %v", off, got, want)
		}
	}
}

// FuzzMerge checks Merge's promises on any file: the block lands once,
// merging again changes nothing, and the bytes outside the blocks survive.
func FuzzMerge(f *testing.F) {
	for _, s := range []string{"", "a\n", "a", "a\n" + blk + "b", Begin + "\n", "\xef\xbb\xbf" + blk, "x\r\n" + End + "\r\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, existing []byte) {
		out, err := Merge(existing, []byte(blk))
		old := Find(existing)
		if len(old) > 0 && !old[len(old)-1].Closed {
			if !errors.Is(err, ErrUnclosed) || out != nil {
				t.Fatalf("Merge(%q): got %q, %v; want ErrUnclosed and nothing", existing, out, err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		spans := Find(out)
		if len(spans) != 1 || string(out[spans[0].Start:spans[0].End]) != blk {
			t.Fatalf("Merge(%q) = %q: want exactly one block equal to the new one, found %+v", existing, out, spans)
		}
		if again, err := Merge(out, []byte(blk)); err != nil || !bytes.Equal(again, out) {
			t.Fatalf("merging twice changed the file:\n%q\n%q (%v)", out, again, err)
		}
		if len(old) == 0 {
			sep := out[len(existing):spans[0].Start]
			if !bytes.HasPrefix(out, existing) || len(sep) > 2 || len(bytes.Trim(sep, "\n")) > 0 {
				t.Fatalf("appending changed the file's own bytes: %q became %q", existing, out)
			}
			return
		}
		var outside []byte
		prev := 0
		for _, s := range old {
			outside = append(outside, existing[prev:s.Start]...)
			prev = s.End
		}
		outside = append(outside, existing[prev:]...)
		rest := append(append([]byte(nil), out[:spans[0].Start]...), out[spans[0].End:]...)
		if !bytes.Equal(rest, outside) {
			t.Fatalf("bytes outside the block changed:\nbefore %q\nafter  %q", outside, rest)
		}
	})
}

// TestProblemCode checks that an unclosed block carries its code and prints as its Problem.
func TestProblemCode(t *testing.T) {
	_, err := Merge([]byte("a\n"+Begin+"\nb\n"), nil)
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("got %v, want an *Error", err)
	}
	e.File = "public/robots.txt"
	p, ok := problem.Of(e)
	if !ok || p.Code != problem.UnclosedBlock || p.Line != 2 {
		t.Errorf("got %s at line %d, want %s at line 2", p.Code, p.Line, problem.UnclosedBlock)
	}
	if p.Error() != e.Error() {
		t.Errorf("Problem prints %q, want %q", p.Error(), e.Error())
	}
	if got := problem.CodeOf(ErrUnclosed); got != problem.UnclosedBlock {
		t.Errorf("ErrUnclosed: code %s, want %s", got, problem.UnclosedBlock)
	}
}

// TestHTMLStyle: a Markdown file (llms.txt) marks robotsmith's block with HTML comments, since a
// line starting with '#' is a heading there; "# robotsmith: begin" in it is the owner's heading.
func TestHTMLStyle(t *testing.T) {
	htmlBlk := HTMLBegin + "\n# Site\n" + HTMLEnd + "\n"
	for _, tc := range []struct {
		desc, existing, want, wantErr string
	}{
		{"created", "", htmlBlk, ""},
		{"replaced in place", "# Mine\n\n" + HTMLBegin + "\nold\n" + HTMLEnd + "\n## More\n", "# Mine\n\n" + htmlBlk + "## More\n", ""},
		{"a hash marker is an ordinary line", Begin + "\n", Begin + "\n\n" + htmlBlk, ""},
		{"unclosed", "a\n" + HTMLBegin + "\nb\n", "",
			`the file:2: "<!-- robotsmith: begin -->" has no "<!-- robotsmith: end -->" after it; add "<!-- robotsmith: end -->" after robotsmith's lines`},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			got, err := HTML.Merge([]byte(tc.existing), []byte(htmlBlk))
			if tc.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.wantErr) || !errors.Is(err, ErrUnclosed) {
					t.Fatalf("err = %v, want %q wrapping ErrUnclosed", err, tc.wantErr)
				}
				return
			}
			if err != nil || string(got) != tc.want {
				t.Errorf("HTML.Merge = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
	if got := len(Hash.Find([]byte(htmlBlk))); got != 0 {
		t.Errorf("Hash.Find found %d blocks in an HTML-marked file", got)
	}
}
