enum State { Open = "open", Closed = "closed" }
return State.Open;
