package core

import (
	"slices"
	"testing"
)

func TestPythonOverrides(t *testing.T) {
	files := []SourceText{
		{"inventory/models/item.py", "class Item:\n    def label(self) -> str:\n        return self.name\n\n    def price(self):\n        pass\n"},
		{"inventory/models/perishable.py", "from .item import Item\n\n\nclass PerishableItem(Item):\n    def label(self) -> str:\n        return super().label() + ' (perishable)'\n\n    async def other(self):\n        def label():  # a local function, not a method\n            pass\n"},
		{"inventory/models/frozen.py", "from inventory import models\n\n\nclass Frozen(models.PerishableItem, metaclass=Meta):\n    # comment\n    def label(self):\n        pass\n\nclass Unrelated:\n    def label(self):\n        pass\n\ndef label():\n    pass\n"},
		{"inventory/generic.py", "class Box(Generic[T], Item):\n  def label(self): ...\n"},
	}
	got := PythonOverrides(files, "Item", "label")
	want := []FileLine{{"inventory/models/perishable.py", 5}, {"inventory/models/frozen.py", 6}, {"inventory/generic.py", 2}}
	if !slices.Equal(got, want) {
		t.Errorf("PythonOverrides = %v, want %v", got, want)
	}
	if got := PythonOverrides(files, "Unrelated", "label"); got != nil {
		t.Errorf("a class without subclasses: %v", got)
	}
	if got := PythonOverrides(files, "Item", "price"); got != nil {
		t.Errorf("a method no subclass overrides: %v", got)
	}
}

// TestPythonOverridesImportAliases: a base written under the name a
// `from m import X as Y` binds is X (a tester's Gadget(BaseItem) and
// Deep(Plain), Plain(BaseItem), were missed).
func TestPythonOverridesImportAliases(t *testing.T) {
	base := SourceText{"shop/models/base.py", "class Item:\n    def describe(self):\n        pass\n"}
	for _, tc := range []struct {
		name string
		text string
		want []int // lines of shop/special.py
	}{
		{"from import as", "from shop.models.base import Item as BaseItem\n\nclass Gadget(BaseItem):\n    def describe(self):\n        pass\n", []int{4}},
		{"through a subclass", "from shop.models.base import Item as BaseItem\n\nclass Plain(BaseItem):\n    pass\n\nclass Deep(Plain):\n    def describe(self):\n        pass\n", []int{7}},
		{"among other names", "from shop.models.base import Other, Item as BaseItem  # the base\n\nclass Gadget(Other, BaseItem):\n    def describe(self): ...\n", []int{4}},
		{"parenthesized over lines", "from shop.models.base import (\n    Other,  # x, Item as Wrong\n    Item as BaseItem,\n)\n\nclass Gadget(BaseItem):\n    def describe(self): ...\n", []int{7}},
		{"import module as", "import shop.models.base as mb\n\nclass Thing(mb.Item):\n    def describe(self): ...\n", []int{4}},
		{"an alias of another class", "from other import Thing as Item2\n\nclass Gadget(Item2):\n    def describe(self): ...\n", nil},
		{"another class imported as Item", "from other import Thing as Item\n\nclass Gadget(Item):\n    def describe(self): ...\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var want []FileLine
			for _, l := range tc.want {
				want = append(want, FileLine{"shop/special.py", l})
			}
			got := PythonOverrides([]SourceText{base, {"shop/special.py", tc.text}}, "Item", "describe")
			if !slices.Equal(got, want) {
				t.Errorf("PythonOverrides = %v, want %v", got, want)
			}
		})
	}
}

func TestPythonOverridden(t *testing.T) {
	files := []SourceText{
		{"auth.py", "class Auth:\n    def auth_flow(self, request):\n        raise NotImplementedError\n\n    def sync_auth_flow(self, request):\n        yield from self.auth_flow(request)\n\n\nclass BasicAuth(Auth):\n    def auth_flow(self, request):\n        yield request\n\n\nclass DigestAuth(BasicAuth):\n    def auth_flow(self, request):\n        yield request\n"},
		{"other.py", "class Unrelated:\n    def auth_flow(self):\n        pass\n"},
	}
	for _, tc := range []struct {
		class string
		want  []FileLine
	}{
		{"BasicAuth", []FileLine{{"auth.py", 2}}},
		{"DigestAuth", []FileLine{{"auth.py", 2}, {"auth.py", 10}}},
		{"Auth", nil},
		{"Unrelated", nil},
	} {
		if got := PythonOverridden(files, tc.class, "auth_flow"); !slices.Equal(got, tc.want) {
			t.Errorf("PythonOverridden(%s) = %v, want %v", tc.class, got, tc.want)
		}
	}
}
