package site

import (
	"errors"

	"github.com/robotsmith/robotsmith/frontmatter"
	"github.com/robotsmith/robotsmith/rules"
)

// hugoInputs are a page's robots directives: every cascade entry that applies to it (nearest
// first, each naming the _index file and line that declares it), then its own front matter.
// cascadeInputs reads the robots keys of a cascade entry once; its errors are reported once.
func (c *hugoCascade) readInputs() error {
	var err error
	c.inputs, err = frontmatter.RobotsFrom(c.orig, rules.Source{Kind: rules.FromCascade, File: c.file, Line: c.line})
	return err
}

func (s *Site) hugoInputs(p *hugoSrc) ([]rules.Input, error) {
	var in []rules.Input
	var errs []error
	for _, a := range p.applied {
		in = append(in, a.c.inputs...)
	}
	own, err := p.doc.Robots()
	if err != nil {
		errs = append(errs, err)
	}
	in = append(in, own...)
	return in, errors.Join(errs...)
}
