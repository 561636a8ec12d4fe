return eval("1 + 1");
