/** LOOKUP's vector and array forms against Microsoft's documented examples. */
import { fixtureHost } from "./harness";

describe("LOOKUP", () => {
  it("finds the last key not above the value in a vector and answers from the result vector", async () => {
    const cells = await fixtureHost().evaluate({
      A1: 4.14, A2: 4.19, A3: 5.17, A4: 5.77, A5: 6.39, B1: "red", B2: "orange", B3: "yellow", B4: "green", B5: "blue",
      C1: "=LOOKUP(4.19,A1:A5,B1:B5)", C2: "=LOOKUP(5.75,A1:A5,B1:B5)", C3: "=LOOKUP(7.66,A1:A5,B1:B5)", C4: "=LOOKUP(0,A1:A5,B1:B5)", C5: "=LOOKUP(5,A1:A5)",
    });
    expect([cells.C1, cells.C2, cells.C3, cells.C4, cells.C5]).toEqual(["orange", "yellow", "blue", "#N/A: no match", 4.19]);
  });

  it("searches an array's first row when it is wider and its first column when it is taller", async () => {
    const cells = await fixtureHost().evaluate({ A1: '=LOOKUP("C",{"a","b","c","d";1,2,3,4})', A2: '=LOOKUP("bump",{"a",1;"b",2;"c",3})' });
    expect([cells.A1, cells.A2]).toEqual([3, 2]);
  });
});
