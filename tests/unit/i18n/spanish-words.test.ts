import { describe, expect, it } from "vitest";
import { costShareWords } from "../../../app/components/plans/cost-share-words";
import { money, wordsFor } from "../../../app/components/plans/format";
import { csrWords, limitWords, metalWords, tierWords } from "../../../app/components/plans/plan-words";
import { drugCoverageWords } from "../../../app/components/plans/coverage-words";
import { eligibilityMessages } from "../../../app/components/plans/eligibility-words";
import { incomeLineSentences } from "../../../app/components/plans/income-line-words";
import { costShareParts } from "../../../app/domain/cost-share";
import { checkHousehold } from "../../../app/server/shopping/shopping-url.server";
import { readShoppingState } from "../../../app/lib/shopping-url";

const es = wordsFor("es");
const en = wordsFor("en");

describe("PUF cost shares as parts (app/domain), worded in each language", () => {
  it("splits copays, coinsurance, no charge and the full cost with their qualifiers", () => {
    expect(costShareParts("$300 Copay per Stay after deductible, 20.00% Coinsurance after deductible")).toEqual([
      { kind: "copay", dollars: "$300", qualifiers: ["perStay", "afterDeductible"] },
      { kind: "coinsurance", percent: 20, qualifiers: ["afterDeductible"] },
    ]);
    expect(costShareParts("100.00%")).toEqual([{ kind: "fullCost" }]);
    expect(costShareParts("No Charge after deductible")).toEqual([
      { kind: "noCharge", qualifiers: ["afterDeductible"] },
    ]);
    expect(costShareParts("$25")).toEqual([{ kind: "copay", dollars: "$25", qualifiers: [] }]);
    // Text these rules do not read is kept as the data gives it.
    expect(costShareParts("Copay per visit, waived if admitted")).toEqual([
      { kind: "text", text: "Copay per visit" },
      { kind: "text", text: "waived if admitted" },
    ]);
    expect(costShareParts("")).toEqual([]);
  });

  it("words them as CuidadoDeSalud.gov does: copago, coseguro, deducible", () => {
    expect(costShareWords("$300 Copay per Stay after deductible", es)).toBe(
      "copago de $300 por estadía después del deducible",
    );
    expect(costShareWords("30.00% Coinsurance after deductible", es)).toBe("coseguro del 30% después del deducible");
    expect(costShareWords("$20, 10.00% Coinsurance", es)).toBe("copago de $20, coseguro del 10%");
    expect(costShareWords("No Charge", es)).toBe("Sin cargo");
    expect(costShareWords("100.00%", es)).toBe("Usted paga el costo total (coseguro del 100%)");
    expect(costShareWords(null, es)).toBe("No se indica");
    // English is unchanged by the split.
    expect(costShareWords("$300 Copay per Stay after deductible", en)).toBe("$300 copay per stay after deductible");
  });
});

describe("Spanish plan words", () => {
  it("metal levels, drug tiers, savings levels and limits", () => {
    expect(["Bronze", "Expanded Bronze", "Silver", "Gold", "Platinum"].map((m) => metalWords(m, es))).toEqual([
      "Bronce",
      "Bronce ampliado",
      "Plata",
      "Oro",
      "Platino",
    ]);
    expect(tierWords("NON-PREFERRED-BRAND", es)).toBe("de marca no preferido");
    expect(csrWords("87", es)).toBe("deducibles y copagos mucho más bajos para usted (nivel del 87%)");
    // Dollars as US Spanish writes them (es-US): the same $1,234.56 as English.
    expect(money(1234.5, "es")).toBe("$1,234.50");
    expect(limitWords({ individual: 1500, family: 3000 }, true, es)).toBe(
      "$1,500.00 por persona, $3,000.00 por familia",
    );
  });

  it("coverage: restrictions named, unknown never said as not covered", () => {
    const restricted = drugCoverageWords(
      {
        coverage: "PartialCovered",
        drug_tier: "PREFERRED-BRAND",
        restrictions: { prior_authorization: true, step_therapy: true, quantity_limit: false },
      },
      "ok",
      es,
    );
    expect(restricted).toEqual({
      tone: "restricted",
      text: "Cubierto con restricciones: autorización previa, terapia escalonada (nivel: de marca preferido)",
    });
    expect(drugCoverageWords(undefined, "unavailable", es).text).toBe(
      "Se desconoce: la consulta de cobertura no está disponible en este momento",
    );
  });

  it("the savings estimate: credit a month and a year (12 × $412.50 = $4,950.00), CSR level, CuidadoDeSalud.gov links", () => {
    const base = { aptc: 412.5, csr: "87", is_medicaid_chip: false, in_coverage_gap: false, fpl_percent: 160 };
    const [credit, csr] = eligibilityMessages(base, null, "TX", ["35"], es);
    expect(credit.heading).toBe("Usted podría recibir un crédito fiscal para la prima de $412.50 al mes");
    expect(credit.body[0]).toMatch(/^Son \$4,950\.00 en el año\./);
    expect(credit.links).toEqual([
      {
        label: "Cómo funciona el crédito fiscal para la prima (CuidadoDeSalud.gov)",
        href: "https://www.cuidadodesalud.gov/es/lower-costs/",
      },
    ]);
    expect(csr.heading).toBe(
      "Su nivel de ahorro: los planes de plata tienen deducibles y copagos mucho más bajos para usted (nivel del 87%)",
    );
    const child = eligibilityMessages(
      { ...base, aptc: 0, csr: null, is_medicaid_chip: true, medicaid_chip_members: [1] },
      null,
      "TX",
      ["35", "8"],
      es,
    );
    expect(child[0].heading).toBe("Posible cobertura de Medicaid o CHIP para la persona 2 (8)");
  });

  it("income lines: the nearest line above with the raise that crosses it", () => {
    // At $30,000 and a line at $31,200 (at or below): $1,200.01 more crosses it.
    const words = incomeLineSentences(
      [{ kind: "csr_87", percent: 200, amount: 31_200, side: "at_or_below" }],
      30_000,
      es,
    );
    expect(words.above).toBe(
      "Hasta $31,200.00 al año (el 200% del nivel de pobreza), los planes de plata tienen el nivel de ahorro del 87%. Con $1,200.01 más de ingresos pasaría ese límite.",
    );
  });

  it("the household form's field messages in Spanish, numbers kept", () => {
    const check = checkHousehold(
      readShoppingState(new URLSearchParams("income=x&age=40&rel=self&age=12&rel=spouse&size=1")),
      "es",
    );
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.errors.income).toBe(
      "Escriba en dólares los ingresos que espera para su hogar en el año, por ejemplo 36000.",
    );
    expect(check.errors.size).toBe(
      "Escriba un número del 2 al 20: todas las personas de su hogar tributario, por lo menos las 2 personas de la lista.",
    );
  });
});
