package localstdio

import (
	"fmt"
	"reflect"
	"testing"
)

// TestArgumentUses: the references in resource and data blocks'
// arguments, not in their meta-arguments, other blocks, strings'
// braces or comments, at UTF-16 columns inside the reference.
func TestArgumentUses(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       []string // kind ref line:character block
	}{
		{"resource argument and interpolation", "resource \"aws_instance\" \"web\" {\n  ami  = var.ami\n  name = \"${local.prefix}-web\"\n}\n",
			[]string{`resource "aws_instance" var.ami 1:10 1`, `resource "aws_instance" local.prefix 2:13 1`}},
		{"meta-arguments left out", "resource \"terraform_data\" \"a\" {\n  count      = var.n\n  depends_on = [\n    module.x,\n  ]\n  lifecycle {\n    ignore_changes = [var.y]\n  }\n  input = {\n    v = var.z\n  }\n}\n",
			[]string{`resource "terraform_data" var.z 9:9 1`}},
		{"data block, nested block", "data \"aws_ami\" \"u\" {\n  filter {\n    values = [data.x.y.id]\n  }\n}\n",
			[]string{`data "aws_ami" data.x 2:15 1`}},
		{"other blocks and comments", "locals {\n  a = var.a\n}\nmodule \"m\" {\n  source = \"./m\"\n  x = var.x\n}\nresource \"r\" \"n\" { # var.c\n  // var.d\n  /* var.e */ y = \"}\" # {\n  z = var.z\n}\noutput \"o\" {\n  value = var.o\n}\n",
			[]string{`resource "r" var.z 10:7 3`}},
		{"two blocks, UTF-16 column", "resource \"r\" \"a\" {\n  x = \"é${var.a}\"\n}\nresource \"r\" \"b\" {\n  y = var.b\n}\n",
			[]string{`resource "r" var.a 1:11 1`, `resource "r" var.b 4:7 2`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, u := range argumentUses(c.text) {
				got = append(got, fmt.Sprintf("%s %s %d:%d %d", u.kind, u.ref, u.line, u.character, u.block))
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("argumentUses =\n%q\nwant\n%q", got, c.want)
			}
		})
	}
}
