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
