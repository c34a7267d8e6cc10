/**
 * The generator's vocabulary: currencies, units, incoterms, sources, locations and the commodities with
 * their products and markets. Levels are rough recent market levels in US dollars per the product's unit.
 */

export type Sector = "MB" | "AG" | "FP";

export interface CurrencyDef {
  id: string;
  description: string;
  sign: string;
  /** How a price reads in a description: `$` in `$/tonne`, `yuan` in `yuan/tonne`. */
  text: string;
  /** Units of this currency per US dollar (a fixed rate is enough for made-up data). */
  perUsd: number;
}

export interface UnitDef {
  id: string;
  description: string;
  sign: string;
  /** What the unit measures; which units convert, and by what factor, is api/conversion.ts's to say. */
  dimension: "mass" | "volume" | "area" | "metal unit";
  /** How the unit reads in a description: `tonne` in `$/tonne`. */
  text: string;
}

export interface SimpleDef {
  id: string;
  description: string;
  sign: string;
}

export interface LocationDef {
  id: string;
  name: string;
  short: string;
  utcOffset: string;
  /** Currencies prices here are quoted in, the usual one first. */
  currencies: readonly string[];
}

export interface MarketDef {
  location: string;
  incoterm: string;
  /** Delivery basis as the description writes it: `in-whs`, `cif`, `fob`, `delivered`... */
  basis: string;
  qualifier?: string;
  /** Overrides the location's currencies. */
  currencies?: readonly string[];
}

export interface ProductDef {
  key: string;
  /** Start of the description: `Aluminium P1020A premium`. */
  name: string;
  /** Start of the short description: `Al P1020A prem`. */
  short: string;
  priceType: "Price" | "Premium/Discount";
  unit: string;
  /** Price: typical level; Premium/Discount: long-run mean (may be near or below zero). US dollars per unit. */
  level: number;
  /** Premium/Discount only: typical swing around the mean, US dollars per unit. */
  swing?: number;
  /** Half the low-high range as a fraction of the level (of the swing for a premium). */
  spread: number;
  markets: readonly MarketDef[];
}

export interface CommodityDef {
  sector: Sector;
  /** The symbol's middle part: `AL` in `MB-AL-0004`. */
  code: string;
  id: string;
  name: string;
  sign: string;
  /** Annual volatility of the commodity's common price factor. */
  volatility: number;
  products: readonly ProductDef[];
}

export const CURRENCIES: readonly CurrencyDef[] = [
  { id: "USD", description: "US Dollar", sign: "$", text: "$", perUsd: 1 },
  { id: "EUR", description: "Euro", sign: "€", text: "€", perUsd: 0.92 },
  { id: "CNY", description: "Chinese Yuan Renminbi", sign: "¥", text: "yuan", perUsd: 7.15 },
  { id: "GBP", description: "British Pound Sterling", sign: "£", text: "£", perUsd: 0.79 },
  { id: "JPY", description: "Japanese Yen", sign: "¥", text: "yen", perUsd: 150 },
  { id: "INR", description: "Indian Rupee", sign: "₹", text: "rupees", perUsd: 83 },
  { id: "BRL", description: "Brazilian Real", sign: "R$", text: "R$", perUsd: 5.2 },
  { id: "CAD", description: "Canadian Dollar", sign: "C$", text: "C$", perUsd: 1.36 },
  { id: "AUD", description: "Australian Dollar", sign: "A$", text: "A$", perUsd: 1.52 },
];

export const UNITS: readonly UnitDef[] = [
  { id: "MT", description: "Metric tonne", sign: "t", dimension: "mass", text: "tonne" },
  { id: "KG", description: "Kilogram", sign: "kg", dimension: "mass", text: "kg" },
  { id: "LB", description: "Pound", sign: "lb", dimension: "mass", text: "lb" },
  { id: "ST", description: "Short ton", sign: "st", dimension: "mass", text: "short ton" },
  { id: "DMT", description: "Dry metric tonne", sign: "dmt", dimension: "mass", text: "dmt" },
  { id: "ADMT", description: "Air-dried metric tonne", sign: "admt", dimension: "mass", text: "admt" },
  { id: "DMTU", description: "Dry metric tonne unit", sign: "dmtu", dimension: "metal unit", text: "dmtu" },
  { id: "MTU", description: "Metric tonne unit", sign: "mtu", dimension: "metal unit", text: "mtu" },
  { id: "BU", description: "Bushel", sign: "bu", dimension: "volume", text: "bushel" },
  { id: "M3", description: "Cubic metre", sign: "m3", dimension: "volume", text: "m3" },
  { id: "MBF", description: "Thousand board feet", sign: "mbf", dimension: "volume", text: "mbf" },
  { id: "MSF", description: "Thousand square feet", sign: "msf", dimension: "area", text: "msf" },
];

export const INCOTERMS: readonly SimpleDef[] = [
  { id: "EXW", description: "Ex Works", sign: "EXW" },
  { id: "FCA", description: "Free Carrier", sign: "FCA" },
  { id: "FAS", description: "Free Alongside Ship", sign: "FAS" },
  { id: "FOB", description: "Free on Board", sign: "FOB" },
  { id: "CFR", description: "Cost and Freight", sign: "CFR" },
  { id: "CIF", description: "Cost, Insurance and Freight", sign: "CIF" },
  { id: "CPT", description: "Carriage Paid To", sign: "CPT" },
  { id: "DAP", description: "Delivered at Place", sign: "DAP" },
  { id: "DDP", description: "Delivered Duty Paid", sign: "DDP" },
];

export const SOURCES: readonly SimpleDef[] = [
  { id: "MB-DESK", description: "Metals price reporting desk", sign: "MB" },
  { id: "AG-DESK", description: "Agriculture price reporting desk", sign: "AG" },
  { id: "FP-DESK", description: "Forest products price reporting desk", sign: "FP" },
  { id: "SURVEY", description: "Market participant survey", sign: "SVY" },
  { id: "INDEX", description: "Index calculated from reported transactions", sign: "IDX" },
];

export const SECTOR_SOURCES: Readonly<Record<Sector, string>> = { MB: "MB-DESK", AG: "AG-DESK", FP: "FP-DESK" };

const EUR_USD = ["EUR", "USD"] as const;
export const LOCATIONS: readonly LocationDef[] = [
  { id: "NLRTM", name: "Rotterdam, Netherlands", short: "Rotterdam", utcOffset: "+01:00", currencies: ["USD", "EUR"] },
  { id: "DEHAM", name: "Hamburg, Germany", short: "Hamburg", utcOffset: "+01:00", currencies: ["USD", "EUR"] },
  { id: "BEANR", name: "Antwerp, Belgium", short: "Antwerp", utcOffset: "+01:00", currencies: ["USD", "EUR"] },
  { id: "EU-NW", name: "North-west Europe", short: "NW Europe", utcOffset: "+01:00", currencies: EUR_USD },
  { id: "EU-N", name: "Northern Europe", short: "N Europe", utcOffset: "+01:00", currencies: ["EUR"] },
  { id: "EU", name: "Europe", short: "Europe", utcOffset: "+01:00", currencies: EUR_USD },
  { id: "DE", name: "Germany", short: "Germany", utcOffset: "+01:00", currencies: ["EUR"] },
  { id: "GB", name: "United Kingdom", short: "UK", utcOffset: "+00:00", currencies: ["GBP", "USD"] },
  { id: "FRURO", name: "Rouen, France", short: "Rouen", utcOffset: "+01:00", currencies: EUR_USD },
  { id: "FR-MOSELLE", name: "Moselle, France", short: "Moselle", utcOffset: "+01:00", currencies: ["EUR"] },
  { id: "RUNVS", name: "Novorossiysk, Russia", short: "Novorossiysk", utcOffset: "+03:00", currencies: ["USD"] },
  { id: "BLACK-SEA", name: "Black Sea", short: "Black Sea", utcOffset: "+03:00", currencies: ["USD"] },
  { id: "UAODS", name: "Odesa, Ukraine", short: "Odesa", utcOffset: "+02:00", currencies: ["USD"] },
  { id: "MACAS", name: "Casablanca, Morocco", short: "Morocco", utcOffset: "+01:00", currencies: ["USD"] },
  { id: "USTPA", name: "Tampa, US", short: "Tampa", utcOffset: "-05:00", currencies: ["USD"] },
  { id: "PKKHI", name: "Karachi, Pakistan", short: "Karachi", utcOffset: "+05:00", currencies: ["USD"] },
  { id: "TR", name: "Turkey", short: "Turkey", utcOffset: "+03:00", currencies: ["USD"] },
  { id: "ME", name: "Middle East", short: "Middle East", utcOffset: "+03:00", currencies: ["USD"] },
  { id: "US-MIDWEST", name: "US Midwest", short: "US Midwest", utcOffset: "-06:00", currencies: ["USD"] },
  { id: "US-GULF", name: "US Gulf", short: "US Gulf", utcOffset: "-06:00", currencies: ["USD"] },
  { id: "US-SE", name: "US Southeast", short: "US Southeast", utcOffset: "-05:00", currencies: ["USD"] },
  { id: "US-GREATLAKES", name: "Great Lakes, US", short: "Great Lakes", utcOffset: "-05:00", currencies: ["USD"] },
  { id: "US-NC", name: "North Central US", short: "North Central", utcOffset: "-06:00", currencies: ["USD"] },
  { id: "US-WEST", name: "US West Coast", short: "US Westside", utcOffset: "-08:00", currencies: ["USD"] },
  { id: "US", name: "United States", short: "US", utcOffset: "-05:00", currencies: ["USD"] },
  { id: "CA-BC", name: "British Columbia, Canada", short: "BC", utcOffset: "-08:00", currencies: ["CAD", "USD"] },
  { id: "CAVAN", name: "Vancouver, Canada", short: "Vancouver", utcOffset: "-08:00", currencies: ["USD", "CAD"] },
  { id: "CA-WEST", name: "Western Canada", short: "W Canada", utcOffset: "-07:00", currencies: ["CAD", "USD"] },
  { id: "BRPNG", name: "Paranaguá, Brazil", short: "Paranaguá", utcOffset: "-03:00", currencies: ["USD"] },
  { id: "BRSSZ", name: "Santos, Brazil", short: "Santos", utcOffset: "-03:00", currencies: ["USD"] },
  { id: "BR", name: "Brazil", short: "Brazil", utcOffset: "-03:00", currencies: ["BRL", "USD"] },
  { id: "AR-UPRIVER", name: "Up River, Argentina", short: "Up River", utcOffset: "-03:00", currencies: ["USD"] },
  { id: "CNSHA", name: "Shanghai, China", short: "Shanghai", utcOffset: "+08:00", currencies: ["USD"] },
  { id: "CNQDG", name: "Qingdao, China", short: "Qingdao", utcOffset: "+08:00", currencies: ["USD", "CNY"] },
  { id: "CNTXG", name: "Tianjin, China", short: "Tianjin", utcOffset: "+08:00", currencies: ["USD"] },
  { id: "CN", name: "China", short: "China", utcOffset: "+08:00", currencies: ["CNY", "USD"] },
  { id: "JP", name: "Japan", short: "Japan", utcOffset: "+09:00", currencies: ["USD", "JPY"] },
  { id: "KR", name: "South Korea", short: "South Korea", utcOffset: "+09:00", currencies: ["USD"] },
  { id: "CJK", name: "China, Japan and South Korea", short: "CJK", utcOffset: "+08:00", currencies: ["USD"] },
  { id: "IN", name: "India", short: "India", utcOffset: "+05:30", currencies: ["INR", "USD"] },
  { id: "INKAK", name: "Kakinada, India", short: "Kakinada", utcOffset: "+05:30", currencies: ["USD"] },
  { id: "THBKK", name: "Bangkok, Thailand", short: "Bangkok", utcOffset: "+07:00", currencies: ["USD"] },
  { id: "VNSGN", name: "Ho Chi Minh City, Vietnam", short: "Ho Chi Minh", utcOffset: "+07:00", currencies: ["USD"] },
  { id: "COCTG", name: "Cartagena, Colombia", short: "Cartagena", utcOffset: "-05:00", currencies: ["USD"] },
  { id: "CIABJ", name: "Abidjan, Côte d'Ivoire", short: "Abidjan", utcOffset: "+00:00", currencies: ["USD"] },
  { id: "GHTEM", name: "Tema, Ghana", short: "Tema", utcOffset: "+00:00", currencies: ["USD"] },
  { id: "IDDUM", name: "Dumai, Indonesia", short: "Dumai", utcOffset: "+07:00", currencies: ["USD"] },
  { id: "MYPKG", name: "Port Klang, Malaysia", short: "Port Klang", utcOffset: "+08:00", currencies: ["USD"] },
  { id: "AUKWI", name: "Kwinana, Australia", short: "Kwinana", utcOffset: "+08:00", currencies: ["USD", "AUD"] },
  { id: "AUPHE", name: "Port Hedland, Australia", short: "Port Hedland", utcOffset: "+08:00", currencies: ["USD"] },
];

function m(location: string, incoterm: string, basis: string, qualifier?: string, currencies?: readonly string[]): MarketDef {
  const market: MarketDef = { location, incoterm, basis };
  if (qualifier !== undefined) market.qualifier = qualifier;
  if (currencies !== undefined) market.currencies = currencies;
  return market;
}

function price(key: string, name: string, short: string, unit: string, level: number, spread: number, markets: MarketDef[]): ProductDef {
  return { key, name, short, priceType: "Price", unit, level, spread, markets };
}

function premium(key: string, name: string, short: string, unit: string, level: number, swing: number, markets: MarketDef[]): ProductDef {
  return { key, name, short, priceType: "Premium/Discount", unit, level, swing, spread: 0.12, markets };
}

const IN_WHS_ROTTERDAM_DP = m("NLRTM", "DDP", "in-whs", "duty paid", ["USD"]);
const IN_WHS_ROTTERDAM_DUP = m("NLRTM", "FCA", "in-whs", "duty unpaid", ["USD"]);
const DDP_MIDWEST = m("US-MIDWEST", "DDP", "ddp");
const CIF_SHANGHAI = m("CNSHA", "CIF", "cif");
const EXW_CHINA = m("CN", "EXW", "exw", undefined, ["CNY"]);
const DDP_EUROPE = m("EU", "DDP", "ddp", undefined, ["USD", "EUR"]);
const DEL_US = m("US", "DAP", "delivered");

export const COMMODITIES: readonly CommodityDef[] = [
  // Metals (MB-)
  { sector: "MB", code: "AL", id: "ALUMINIUM", name: "Aluminium", sign: "Al", volatility: 0.2, products: [
    premium("P1020A-PREM", "Aluminium P1020A premium", "Al P1020A prem", "MT", 250, 90, [IN_WHS_ROTTERDAM_DP, IN_WHS_ROTTERDAM_DUP, DDP_MIDWEST, m("JP", "CIF", "cif", undefined, ["USD"]), CIF_SHANGHAI]),
    price("P1020A", "Aluminium P1020A", "Al P1020A", "MT", 2300, 0.004, [IN_WHS_ROTTERDAM_DP, DDP_MIDWEST, EXW_CHINA, m("JP", "CIF", "cif")]),
    price("ADC12", "Aluminium alloy ADC12", "Al ADC12", "MT", 2400, 0.01, [m("JP", "CIF", "cif"), EXW_CHINA]),
    price("A356", "Aluminium alloy A356.2", "Al A356.2", "MT", 2700, 0.01, [DDP_EUROPE]),
    premium("BILLET-PREM", "Aluminium 6063 extrusion billet premium", "Al billet prem", "MT", 420, 150, [DDP_EUROPE, DDP_MIDWEST]),
    price("SCRAP-TT", "Aluminium scrap taint/tabor", "Al scrap TT", "MT", 1700, 0.02, [DEL_US, m("GB", "DAP", "delivered")]),
  ] },
  { sector: "MB", code: "CU", id: "COPPER", name: "Copper", sign: "Cu", volatility: 0.22, products: [
    premium("CATH-PREM", "Copper grade A cathode premium", "Cu cath prem", "MT", 90, 55, [CIF_SHANGHAI, IN_WHS_ROTTERDAM_DP, DDP_MIDWEST, m("DE", "DDP", "ddp", undefined, ["USD"]), m("KR", "CIF", "cif"), m("JP", "CIF", "cif", undefined, ["USD"])]),
    price("CATH", "Copper grade A cathode", "Cu cath", "MT", 8500, 0.003, [EXW_CHINA, CIF_SHANGHAI]),
    premium("CONC-TC", "Copper concentrates TC, 26% Cu", "Cu conc TC", "DMT", 35, 45, [m("CN", "CIF", "cif"), m("JP", "CIF", "cif", undefined, ["USD"])]),
    price("SCRAP-NO1", "Copper scrap No.1", "Cu scrap No.1", "MT", 7800, 0.015, [DEL_US, m("NLRTM", "FOB", "fob")]),
    price("ROD", "Copper 8mm rod", "Cu rod", "MT", 8900, 0.005, [DDP_EUROPE]),
  ] },
  { sector: "MB", code: "NI", id: "NICKEL", name: "Nickel", sign: "Ni", volatility: 0.3, products: [
    premium("CATH-PREM", "Nickel full plate cathode premium", "Ni plate prem", "MT", 250, 180, [IN_WHS_ROTTERDAM_DP, CIF_SHANGHAI, DDP_MIDWEST]),
    premium("BRIQ-PREM", "Nickel briquette premium", "Ni briq prem", "MT", 150, 120, [IN_WHS_ROTTERDAM_DP, CIF_SHANGHAI]),
    price("SULF", "Nickel sulfate min 21%, max 22.5%; cobalt 10ppm max", "Ni sulfate", "MT", 3800, 0.02, [EXW_CHINA, m("CJK", "CIF", "cif")]),
    price("NPI", "Nickel pig iron, high-grade NPI, 10-15% Ni", "NPI 10-15%", "MT", 1100, 0.02, [m("CN", "DDP", "ddp", undefined, ["CNY", "USD"])]),
  ] },
  { sector: "MB", code: "ZN", id: "ZINC", name: "Zinc", sign: "Zn", volatility: 0.2, products: [
    premium("SHG-PREM", "Zinc 99.995% SHG premium", "Zn SHG prem", "MT", 150, 80, [IN_WHS_ROTTERDAM_DP, DDP_MIDWEST, CIF_SHANGHAI, m("KR", "CIF", "cif")]),
    price("SHG", "Zinc 99.995% SHG", "Zn SHG", "MT", 2600, 0.004, [EXW_CHINA]),
    premium("CONC-TC", "Zinc concentrates TC, 50% Zn", "Zn conc TC", "DMT", 200, 80, [m("CN", "CIF", "cif", undefined, ["USD"]), m("EU", "CIF", "cif", undefined, ["USD"])]),
  ] },
  { sector: "MB", code: "PB", id: "LEAD", name: "Lead", sign: "Pb", volatility: 0.18, products: [
    premium("9997-PREM", "Lead 99.97% ingot premium", "Pb 99.97 prem", "MT", 120, 60, [IN_WHS_ROTTERDAM_DP, DDP_MIDWEST]),
    price("9997", "Lead 99.97% ingot", "Pb 99.97", "MT", 2000, 0.005, [EXW_CHINA]),
    price("BATT", "Lead scrap, whole batteries", "Pb batt scrap", "MT", 1100, 0.03, [DEL_US, m("EU", "DAP", "delivered", undefined, ["EUR", "USD"])]),
  ] },
  { sector: "MB", code: "SN", id: "TIN", name: "Tin", sign: "Sn", volatility: 0.25, products: [
    premium("9985-PREM", "Tin 99.85% premium", "Sn 99.85 prem", "MT", 450, 200, [IN_WHS_ROTTERDAM_DP, DDP_MIDWEST, m("KR", "CIF", "cif")]),
    price("9990", "Tin 99.90%", "Sn 99.90", "MT", 25000, 0.004, [EXW_CHINA]),
  ] },
  { sector: "MB", code: "CO", id: "COBALT", name: "Cobalt", sign: "Co", volatility: 0.35, products: [
    price("STD", "Cobalt standard grade", "Co std", "LB", 15, 0.02, [IN_WHS_ROTTERDAM_DP]),
    price("ALLOY", "Cobalt alloy grade", "Co alloy", "LB", 16, 0.02, [IN_WHS_ROTTERDAM_DP]),
    price("SULF", "Cobalt sulfate 20.5% Co", "Co sulfate", "MT", 5500, 0.02, [EXW_CHINA]),
    price("TETROX", "Cobalt tetroxide 72.6% Co", "Co3O4", "KG", 22, 0.02, [m("CN", "EXW", "exw", undefined, ["USD"])]),
  ] },
  { sector: "MB", code: "LI", id: "LITHIUM", name: "Lithium", sign: "Li", volatility: 0.45, products: [
    price("CARB-BG", "Lithium carbonate 99.5% Li2CO3 min, battery grade, spot price", "Li2CO3 BG", "KG", 15, 0.03, [m("CJK", "CIF", "cif"), m("EU", "DDP", "ddp", undefined, ["USD"]), m("US", "DDP", "ddp")]),
    price("CARB-CN", "Lithium carbonate 99.5% Li2CO3 min, battery grade", "Li2CO3 BG", "MT", 15000, 0.02, [EXW_CHINA]),
    price("HYD-BG", "Lithium hydroxide monohydrate LiOH.H2O 56.5% LiOH min, battery grade", "LiOH BG", "KG", 14, 0.03, [m("CJK", "CIF", "cif"), m("EU", "DDP", "ddp", undefined, ["USD"]), m("US", "DDP", "ddp")]),
    price("SPOD", "Spodumene min 6% Li2O", "Spodumene 6%", "MT", 1100, 0.03, [m("CN", "CIF", "cif", undefined, ["USD"])]),
  ] },
  { sector: "MB", code: "STE", id: "STEEL", name: "Steel", sign: "St", volatility: 0.18, products: [
    price("HRC", "Steel hot-rolled coil", "HRC", "MT", 650, 0.01, [m("EU-N", "EXW", "exw"), m("CN", "FOB", "fob", undefined, ["USD"]), EXW_CHINA, m("IN", "EXW", "exw", undefined, ["INR"]), m("TR", "EXW", "exw"), m("BR", "EXW", "exw", undefined, ["BRL"])]),
    price("HRC-US", "Steel hot-rolled coil index", "HRC idx", "ST", 900, 0.01, [m("US-MIDWEST", "EXW", "fob mill")]),
    price("CRC", "Steel cold-rolled coil", "CRC", "MT", 750, 0.01, [m("EU-N", "EXW", "exw"), m("CN", "FOB", "fob", undefined, ["USD"])]),
    price("REBAR", "Steel reinforcing bar (rebar)", "Rebar", "MT", 580, 0.012, [m("TR", "FOB", "fob"), EXW_CHINA, m("EU-NW", "DAP", "delivered", undefined, ["EUR"])]),
    price("PLATE", "Steel heavy plate", "Plate", "MT", 800, 0.012, [m("EU-NW", "EXW", "exw", undefined, ["EUR"])]),
    price("HDG", "Steel hot-dipped galvanized coil", "HDG", "MT", 820, 0.012, [m("EU-N", "EXW", "exw"), m("CN", "FOB", "fob", undefined, ["USD"])]),
    price("HMS", "Steel scrap HMS 1&2 (80:20 mix)", "HMS 1&2 80:20", "MT", 380, 0.01, [m("TR", "CFR", "cfr")]),
    price("SHRED", "Steel scrap shredded", "Shred", "ST", 400, 0.015, [m("US-MIDWEST", "DAP", "delivered mill")]),
  ] },
  { sector: "MB", code: "FE", id: "IRON-ORE", name: "Iron ore", sign: "Fe", volatility: 0.28, products: [
    price("62FINES", "Iron ore 62% Fe fines", "Fe 62% fines", "DMT", 110, 0.004, [m("CNQDG", "CFR", "cfr"), m("AUPHE", "FOB", "fob")]),
    price("65FINES", "Iron ore 65% Fe Brazil-origin fines", "Fe 65% BR fines", "DMT", 125, 0.004, [m("CNQDG", "CFR", "cfr")]),
    price("58FINES", "Iron ore 58% Fe fines, high-alumina", "Fe 58% fines", "DMT", 95, 0.005, [m("CNQDG", "CFR", "cfr")]),
    premium("PELLET-PREM", "Iron ore pellet premium over 65% Fe fines", "Fe pellet prem", "DMT", 25, 12, [m("CNQDG", "CFR", "cfr")]),
    premium("LUMP-PREM", "Iron ore lump premium", "Fe lump prem", "DMTU", 0.2, 0.12, [m("CNQDG", "CFR", "cfr")]),
  ] },
  { sector: "MB", code: "MN", id: "MANGANESE", name: "Manganese", sign: "Mn", volatility: 0.25, products: [
    price("ORE44", "Manganese ore 44% Mn", "Mn ore 44%", "DMTU", 4.5, 0.02, [m("CNTXG", "CIF", "cif")]),
    price("SIMN", "Silico-manganese 65% Mn, 17% Si", "SiMn 65/17", "MT", 1100, 0.015, [m("EU-NW", "DDP", "ddp"), m("IN", "EXW", "exw", undefined, ["INR"])]),
    price("FEMN-HC", "Ferro-manganese 78% Mn, high carbon", "HC FeMn 78%", "MT", 1200, 0.015, [m("EU-NW", "DDP", "ddp")]),
  ] },
  { sector: "MB", code: "MO", id: "MOLYBDENUM", name: "Molybdenum", sign: "Mo", volatility: 0.3, products: [
    price("OXIDE", "Molybdenum drummed molybdic oxide, Mo", "Mo oxide", "LB", 20, 0.02, [IN_WHS_ROTTERDAM_DP]),
    price("FEMO", "Ferro-molybdenum 65-75% Mo", "FeMo", "KG", 45, 0.02, [m("EU", "DDP", "ddp", undefined, ["USD"])]),
  ] },
  { sector: "MB", code: "SI", id: "SILICON", name: "Silicon", sign: "Si", volatility: 0.2, products: [
    price("553", "Silicon metal grade 5-5-3", "Si 553", "MT", 2000, 0.015, [m("EU-NW", "DDP", "ddp", undefined, ["EUR"]), m("CN", "FOB", "fob", undefined, ["USD"]), EXW_CHINA]),
  ] },
  { sector: "MB", code: "MG", id: "MAGNESIUM", name: "Magnesium", sign: "Mg", volatility: 0.2, products: [
    price("999", "Magnesium 99.9% Mg min", "Mg 99.9", "MT", 2300, 0.015, [m("CN", "FOB", "fob", undefined, ["USD"]), IN_WHS_ROTTERDAM_DP]),
  ] },
  { sector: "MB", code: "V", id: "VANADIUM", name: "Vanadium", sign: "V", volatility: 0.3, products: [
    price("FEV", "Ferro-vanadium 70-80% V", "FeV 78%", "KG", 30, 0.02, [m("EU", "DDP", "ddp", undefined, ["USD"])]),
    price("V2O5", "Vanadium pentoxide 98% V2O5 min", "V2O5 98%", "LB", 6, 0.02, [m("CN", "FOB", "fob", undefined, ["USD"])]),
  ] },
  { sector: "MB", code: "CR", id: "CHROME", name: "Chrome", sign: "Cr", volatility: 0.2, products: [
    price("FECR-HC", "Ferro-chrome 6-8.5% C, basis 60-70% Cr, high carbon", "HC FeCr", "LB", 1.3, 0.02, [m("EU", "DDP", "ddp", undefined, ["USD"])]),
    price("ORE", "Chrome ore South African UG2 concentrate 42% Cr2O3", "Cr ore UG2", "MT", 280, 0.015, [m("CN", "CIF", "cif", undefined, ["USD"])]),
  ] },
  { sector: "MB", code: "W", id: "TUNGSTEN", name: "Tungsten", sign: "W", volatility: 0.2, products: [
    price("APT", "Tungsten APT 88.5% WO3 min", "APT 88.5%", "MTU", 340, 0.015, [IN_WHS_ROTTERDAM_DUP, m("CN", "FOB", "fob", undefined, ["USD"]), EXW_CHINA]),
    price("FEW", "Ferro-tungsten basis 75% W", "FeW 75%", "KG", 45, 0.02, [m("EU", "DDP", "ddp", undefined, ["USD"])]),
  ] },
  { sector: "MB", code: "SB", id: "ANTIMONY", name: "Antimony", sign: "Sb", volatility: 0.3, products: [
    price("REG", "Antimony regulus 99.65% max 100ppm Se", "Sb regulus", "MT", 12000, 0.015, [IN_WHS_ROTTERDAM_DP, EXW_CHINA]),
    price("TRIOX", "Antimony trioxide 99.2-99.5%", "Sb2O3", "MT", 11000, 0.02, [m("EU", "DDP", "ddp", undefined, ["USD"])]),
  ] },
  { sector: "MB", code: "BI", id: "BISMUTH", name: "Bismuth", sign: "Bi", volatility: 0.25, products: [
    price("9999", "Bismuth 99.99% Bi min", "Bi 99.99", "LB", 4.5, 0.02, [IN_WHS_ROTTERDAM_DUP, EXW_CHINA]),
  ] },
  { sector: "MB", code: "IN", id: "INDIUM", name: "Indium", sign: "In", volatility: 0.25, products: [
    price("9999", "Indium ingots 99.99% min", "In 99.99", "KG", 300, 0.02, [IN_WHS_ROTTERDAM_DUP, EXW_CHINA]),
  ] },
  { sector: "MB", code: "GA", id: "GALLIUM", name: "Gallium", sign: "Ga", volatility: 0.3, products: [
    price("9999", "Gallium 99.99% Ga min", "Ga 99.99", "KG", 500, 0.02, [IN_WHS_ROTTERDAM_DUP, EXW_CHINA]),
  ] },
  { sector: "MB", code: "GE", id: "GERMANIUM", name: "Germanium", sign: "Ge", volatility: 0.25, products: [
    price("99999", "Germanium metal 99.999% Ge min", "Ge 99.999", "KG", 1800, 0.02, [IN_WHS_ROTTERDAM_DUP, EXW_CHINA]),
  ] },
  { sector: "MB", code: "REE", id: "RARE-EARTHS", name: "Rare earths", sign: "REE", volatility: 0.35, products: [
    price("NDPR", "Neodymium-praseodymium oxide 99% min", "NdPr oxide", "KG", 60, 0.02, [EXW_CHINA, m("EU", "CIF", "cif", undefined, ["USD"])]),
    price("DY2O3", "Dysprosium oxide 99.5% min", "Dy2O3", "KG", 250, 0.02, [EXW_CHINA, m("EU", "CIF", "cif", undefined, ["USD"])]),
  ] },
  // Agriculture (AG-)
  { sector: "AG", code: "WHE", id: "WHEAT", name: "Wheat", sign: "W", volatility: 0.25, products: [
    price("125", "Wheat 12.5% protein", "Wheat 12.5%", "MT", 250, 0.006, [m("RUNVS", "FOB", "fob"), m("UAODS", "FOB", "fob"), m("AR-UPRIVER", "FOB", "fob")]),
    price("SRW", "Wheat soft red winter", "Wheat SRW", "MT", 260, 0.006, [m("US-GULF", "FOB", "fob")]),
    price("HRW", "Wheat hard red winter 11.5% protein", "Wheat HRW", "MT", 280, 0.006, [m("US-GULF", "FOB", "fob")]),
    price("MILL", "Milling wheat 11% protein", "Mill wheat", "MT", 240, 0.006, [m("FRURO", "FOB", "fob")]),
    price("APW", "Wheat Australian premium white", "Wheat APW", "MT", 290, 0.006, [m("AUKWI", "FOB", "fob")]),
    price("FEED", "Feed wheat", "Feed wheat", "MT", 220, 0.008, [m("GB", "DAP", "delivered", undefined, ["GBP"])]),
    price("CWRS", "Wheat Canada western red spring 13.5%", "Wheat CWRS", "MT", 320, 0.006, [m("CAVAN", "FOB", "fob")]),
    premium("SRW-BASIS", "Wheat SRW basis over futures", "Wheat SRW basis", "MT", 40, 25, [m("US-GULF", "FOB", "fob")]),
  ] },
  { sector: "AG", code: "CRN", id: "CORN", name: "Corn", sign: "C", volatility: 0.25, products: [
    price("YC", "Corn yellow", "Corn", "MT", 210, 0.006, [m("US-GULF", "FOB", "fob"), m("BRPNG", "FOB", "fob"), m("AR-UPRIVER", "FOB", "fob"), m("BLACK-SEA", "FOB", "fob"), m("KR", "CFR", "cfr"), m("JP", "CFR", "cfr")]),
    price("DOM", "Corn", "Corn", "MT", 190, 0.01, [m("BR", "DAP", "delivered", undefined, ["BRL"]), m("CN", "DAP", "delivered", undefined, ["CNY"])]),
    premium("PNG-PREM", "Corn export premium over futures", "Corn prem", "BU", 0.5, 0.4, [m("BRPNG", "FOB", "fob"), m("US-GULF", "FOB", "fob")]),
  ] },
  { sector: "AG", code: "SOY", id: "SOYBEANS", name: "Soybeans", sign: "S", volatility: 0.22, products: [
    price("BEANS", "Soybeans", "Soybeans", "MT", 430, 0.005, [m("US-GULF", "FOB", "fob"), m("BRPNG", "FOB", "fob"), m("BRSSZ", "FOB", "fob"), m("CN", "CFR", "cfr", undefined, ["USD"])]),
    premium("PREM", "Soybeans export premium over futures", "Soy prem", "BU", 0.4, 0.6, [m("BRPNG", "FOB", "fob"), m("US-GULF", "FOB", "fob")]),
    price("MEAL", "Soybean meal 47% protein", "Soymeal 47%", "MT", 370, 0.006, [m("AR-UPRIVER", "FOB", "fob"), m("NLRTM", "CIF", "cif"), m("VNSGN", "CFR", "cfr")]),
    price("OIL", "Soybean oil crude degummed", "Soyoil", "MT", 1000, 0.006, [m("AR-UPRIVER", "FOB", "fob"), m("BRPNG", "FOB", "fob"), m("IN", "CIF", "cif", undefined, ["USD"])]),
  ] },
  { sector: "AG", code: "SUG", id: "SUGAR", name: "Sugar", sign: "SB", volatility: 0.28, products: [
    price("RAW", "Raw sugar VHP", "Raw sugar", "MT", 450, 0.006, [m("BRSSZ", "FOB", "fob"), m("THBKK", "FOB", "fob"), m("CN", "CIF", "cif", undefined, ["USD"])]),
    price("WHITE", "White sugar ICUMSA 45", "White sugar", "MT", 550, 0.006, [m("BRSSZ", "FOB", "fob"), m("IN", "EXW", "exw", undefined, ["INR"]), m("EU", "DAP", "delivered", undefined, ["EUR"]), m("CN", "CIF", "cif", undefined, ["USD"]), m("GB", "DAP", "delivered", undefined, ["GBP"])]),
  ] },
  { sector: "AG", code: "COF", id: "COFFEE", name: "Coffee", sign: "KC", volatility: 0.33, products: [
    price("ARA-BR", "Coffee arabica Brazil NY 2/3", "Arabica BR", "MT", 5000, 0.008, [m("BRSSZ", "FOB", "fob")]),
    price("ROB-VN", "Coffee robusta Vietnam grade 2, 5% black and broken", "Robusta VN G2", "MT", 4000, 0.008, [m("VNSGN", "FOB", "fob")]),
    price("ARA-CO", "Coffee arabica Colombia excelso", "Arabica CO", "MT", 5600, 0.008, [m("COCTG", "FOB", "fob")]),
    premium("ROB-DIFF", "Coffee robusta Vietnam differential to futures", "Robusta VN diff", "MT", 100, 150, [m("VNSGN", "FOB", "fob")]),
  ] },
  { sector: "AG", code: "COC", id: "COCOA", name: "Cocoa", sign: "CC", volatility: 0.35, products: [
    price("BEANS", "Cocoa beans main crop", "Cocoa beans", "MT", 6000, 0.008, [m("CIABJ", "FOB", "fob"), m("GHTEM", "FOB", "fob"), m("NLRTM", "CIF", "cif", undefined, ["EUR", "GBP"])]),
  ] },
  { sector: "AG", code: "RIC", id: "RICE", name: "Rice", sign: "RR", volatility: 0.15, products: [
    price("TH5", "Rice Thai white 5% broken", "Rice TH 5%", "MT", 550, 0.008, [m("THBKK", "FOB", "fob")]),
    price("VN5", "Rice Vietnam white 5% broken", "Rice VN 5%", "MT", 520, 0.008, [m("VNSGN", "FOB", "fob")]),
    price("IN5", "Rice India parboiled 5% broken", "Rice IN 5%", "MT", 480, 0.008, [m("INKAK", "FOB", "fob"), m("PKKHI", "FOB", "fob")]),
  ] },
  { sector: "AG", code: "BAR", id: "BARLEY", name: "Barley", sign: "BA", volatility: 0.22, products: [
    price("FEED", "Feed barley", "Feed barley", "MT", 220, 0.008, [m("FRURO", "FOB", "fob"), m("BLACK-SEA", "FOB", "fob"), m("AUKWI", "FOB", "fob")]),
    price("MALT", "Malting barley spring crop", "Malt barley", "MT", 280, 0.008, [m("FRURO", "FOB", "fob", undefined, ["EUR"]), m("AUKWI", "FOB", "fob")]),
  ] },
  { sector: "AG", code: "CTN", id: "COTTON", name: "Cotton", sign: "CT", volatility: 0.22, products: [
    price("MID", "Cotton middling 1-1/8\"", "Cotton M 1-1/8", "LB", 0.9, 0.006, [m("CN", "CFR", "cfr", undefined, ["USD"]), m("US", "FOB", "fob"), m("BR", "FOB", "fob")]),
  ] },
  { sector: "AG", code: "PLO", id: "PALM-OIL", name: "Palm oil", sign: "PO", volatility: 0.25, products: [
    price("CPO", "Crude palm oil", "CPO", "MT", 950, 0.006, [m("NLRTM", "CIF", "cif"), m("IDDUM", "FOB", "fob"), m("MYPKG", "FOB", "fob")]),
    price("OLEIN", "RBD palm olein", "RBD olein", "MT", 980, 0.006, [m("MYPKG", "FOB", "fob"), m("IN", "CIF", "cif", undefined, ["USD"]), m("CN", "CIF", "cif", undefined, ["USD"])]),
  ] },
  { sector: "AG", code: "RAP", id: "RAPESEED", name: "Rapeseed", sign: "RS", volatility: 0.22, products: [
    price("SEED", "Rapeseed 00", "Rapeseed", "MT", 480, 0.006, [m("FR-MOSELLE", "DAP", "delivered"), m("DEHAM", "CIF", "cif")]),
    price("CANOLA", "Canola No.1", "Canola", "MT", 520, 0.006, [m("CAVAN", "FOB", "fob")]),
  ] },
  { sector: "AG", code: "URE", id: "UREA", name: "Urea", sign: "UR", volatility: 0.35, products: [
    price("GRAN", "Urea granular", "Urea gran", "MT", 350, 0.01, [m("ME", "FOB", "fob"), m("BR", "CFR", "cfr", undefined, ["USD"]), m("US-GULF", "FOB", "fob barge", undefined, ["USD"])]),
    price("PRILL", "Urea prilled", "Urea prill", "MT", 330, 0.01, [m("BLACK-SEA", "FOB", "fob"), m("CN", "FOB", "fob", undefined, ["USD"])]),
  ] },
  { sector: "AG", code: "POT", id: "POTASH", name: "Potash", sign: "K", volatility: 0.25, products: [
    price("MOP-GRAN", "Potash MOP granular", "MOP gran", "MT", 350, 0.01, [m("BR", "CFR", "cfr", undefined, ["USD"]), m("EU-NW", "CIF", "cif", undefined, ["EUR", "USD"])]),
    price("MOP-STD", "Potash MOP standard", "MOP std", "MT", 300, 0.01, [m("CNQDG", "CFR", "cfr")]),
  ] },
  { sector: "AG", code: "SFO", id: "SUNFLOWER-OIL", name: "Sunflower oil", sign: "SFO", volatility: 0.25, products: [
    price("CRUDE", "Sunflower oil crude", "SFO crude", "MT", 1000, 0.006, [m("BLACK-SEA", "FOB", "fob"), m("NLRTM", "CIF", "cif"), m("IN", "CIF", "cif", undefined, ["USD"])]),
  ] },
  { sector: "AG", code: "PHO", id: "PHOSPHATES", name: "Phosphates", sign: "P", volatility: 0.3, products: [
    price("DAP", "Phosphates DAP (diammonium phosphate)", "DAP", "MT", 560, 0.01, [m("MACAS", "FOB", "fob"), m("IN", "CFR", "cfr", undefined, ["USD"]), m("US-GULF", "FOB", "fob barge")]),
    price("MAP", "Phosphates MAP (monoammonium phosphate) 11-52-0", "MAP", "MT", 600, 0.01, [m("BR", "CFR", "cfr", undefined, ["USD"])]),
  ] },
  { sector: "AG", code: "AMM", id: "AMMONIA", name: "Ammonia", sign: "NH3", volatility: 0.35, products: [
    price("NH3", "Ammonia anhydrous", "Ammonia", "MT", 450, 0.01, [m("USTPA", "CFR", "cfr"), m("ME", "FOB", "fob"), m("EU-NW", "CFR", "cfr", undefined, ["USD", "EUR"])]),
  ] },
  { sector: "AG", code: "SOR", id: "SORGHUM", name: "Sorghum", sign: "SG", volatility: 0.25, products: [
    price("YS", "Sorghum yellow", "Sorghum", "MT", 220, 0.008, [m("US-GULF", "FOB", "fob"), m("AR-UPRIVER", "FOB", "fob")]),
  ] },
  { sector: "AG", code: "OAT", id: "OATS", name: "Oats", sign: "O", volatility: 0.25, products: [
    price("MILL", "Oats milling", "Milling oats", "MT", 230, 0.01, [m("GB", "DAP", "delivered", undefined, ["GBP"]), m("FRURO", "FOB", "fob", undefined, ["EUR"])]),
  ] },
  { sector: "AG", code: "ETH", id: "ETHANOL", name: "Ethanol", sign: "ETH", volatility: 0.25, products: [
    price("T2", "Ethanol T2 fuel grade", "Ethanol T2", "M3", 750, 0.008, [m("NLRTM", "FOB", "fob", undefined, ["EUR", "USD"])]),
    price("HYD", "Ethanol hydrous", "Hydrous ethanol", "M3", 550, 0.01, [m("BR", "EXW", "exw", undefined, ["BRL"])]),
    price("US", "Ethanol denatured", "Ethanol", "M3", 500, 0.008, [m("US-MIDWEST", "FOB", "fob")]),
  ] },
  // Forest products (FP-)
  { sector: "FP", code: "PLP", id: "PULP", name: "Pulp", sign: "PLP", volatility: 0.2, products: [
    price("NBSK", "Pulp NBSK (northern bleached softwood kraft)", "NBSK", "ADMT", 1400, 0.01, [m("US", "DAP", "delivered"), m("CN", "CIF", "cif", undefined, ["USD"]), m("EU", "DAP", "delivered", undefined, ["USD", "EUR"]), m("KR", "CIF", "cif")]),
    price("BHKP", "Pulp BHKP (bleached hardwood kraft, eucalyptus)", "BHKP", "ADMT", 1100, 0.01, [m("EU", "DAP", "delivered", undefined, ["USD", "EUR"]), m("CN", "CIF", "cif", undefined, ["USD"]), m("US", "DAP", "delivered")]),
    price("FLUFF", "Pulp fluff, southern softwood", "Fluff pulp", "ADMT", 1300, 0.01, [m("US", "DAP", "delivered"), m("EU", "DAP", "delivered", undefined, ["USD"])]),
    price("BCTMP", "Pulp BCTMP (bleached chemi-thermomechanical)", "BCTMP", "ADMT", 650, 0.012, [m("CN", "CIF", "cif", undefined, ["USD"]), m("KR", "CIF", "cif")]),
    price("DISS", "Pulp dissolving wood pulp", "DWP", "ADMT", 900, 0.012, [m("CN", "CIF", "cif", undefined, ["USD"])]),
    price("UKP", "Pulp unbleached softwood kraft", "UKP", "ADMT", 700, 0.012, [m("CN", "CIF", "cif", undefined, ["USD"])]),
  ] },
  { sector: "FP", code: "LBR", id: "LUMBER", name: "Lumber", sign: "LBR", volatility: 0.35, products: [
    price("SPF-24", "Lumber SPF 2x4 #2&Btr KD", "SPF 2x4 #2&Btr", "MBF", 550, 0.01, [m("US-GREATLAKES", "DAP", "delivered"), m("CA-BC", "FOB", "fob mill", undefined, ["CAD", "USD"])]),
    price("SPF-26", "Lumber SPF 2x6 #2&Btr KD", "SPF 2x6 #2&Btr", "MBF", 580, 0.01, [m("US-GREATLAKES", "DAP", "delivered"), m("CA-BC", "FOB", "fob mill", undefined, ["CAD", "USD"])]),
    price("SPF-28", "Lumber SPF 2x8 #2&Btr KD", "SPF 2x8 #2&Btr", "MBF", 600, 0.012, [m("US-GREATLAKES", "DAP", "delivered")]),
    price("SYP-26", "Lumber southern yellow pine 2x6 #2", "SYP 2x6 #2", "MBF", 430, 0.012, [m("US-SE", "FOB", "fob mill")]),
    price("SYP-24", "Lumber southern yellow pine 2x4 #2", "SYP 2x4 #2", "MBF", 450, 0.012, [m("US-SE", "FOB", "fob mill")]),
    price("DF-24", "Lumber Douglas fir 2x4 #2&Btr green", "DF 2x4", "MBF", 520, 0.012, [m("US-WEST", "FOB", "fob mill")]),
    price("HF-24", "Lumber Hem-fir 2x4 #2&Btr KD", "Hem-fir 2x4", "MBF", 500, 0.012, [m("US-WEST", "FOB", "fob mill")]),
    price("EU-WW", "Lumber European whitewood, kiln-dried carcassing", "EU whitewood", "M3", 300, 0.015, [m("GB", "DAP", "delivered", undefined, ["GBP"]), m("DE", "DAP", "delivered")]),
  ] },
  { sector: "FP", code: "OSB", id: "OSB", name: "Oriented strand board", sign: "OSB", volatility: 0.4, products: [
    price("716", "OSB 7/16\" (Canadian 11 mm)", "OSB 7/16\"", "MSF", 400, 0.015, [m("US-NC", "FOB", "fob mill"), m("US-SE", "FOB", "fob mill"), m("US-WEST", "FOB", "fob mill"), m("CA-WEST", "FOB", "fob mill", undefined, ["USD", "CAD"])]),
    price("2332", "OSB 23/32\" T&G", "OSB 23/32\"", "MSF", 650, 0.015, [m("US-NC", "FOB", "fob mill"), m("US-SE", "FOB", "fob mill"), m("CA-WEST", "FOB", "fob mill", undefined, ["CAD"])]),
    price("EU-OSB3", "OSB/3 18 mm", "OSB/3 18mm", "M3", 350, 0.015, [m("DE", "DAP", "delivered"), m("GB", "DAP", "delivered", undefined, ["GBP"])]),
  ] },
  { sector: "FP", code: "PLY", id: "PLYWOOD", name: "Plywood", sign: "PLY", volatility: 0.3, products: [
    price("SYP-12", "Plywood southern pine 1/2\" 4-ply CDX", "SYP ply 1/2\"", "MSF", 550, 0.015, [m("US-SE", "FOB", "fob mill")]),
    price("DF-12", "Plywood Douglas fir 1/2\" 3-ply CDX", "DF ply 1/2\"", "MSF", 600, 0.015, [m("US-WEST", "FOB", "fob mill")]),
    price("HW-18", "Plywood hardwood 18 mm", "HW ply 18mm", "M3", 650, 0.015, [m("EU", "CIF", "cif", undefined, ["EUR", "USD"])]),
    price("BIRCH", "Plywood birch BB/CP 18 mm", "Birch ply", "M3", 900, 0.015, [m("DE", "DAP", "delivered")]),
  ] },
  { sector: "FP", code: "PAP", id: "PAPER", name: "Paper", sign: "PAP", volatility: 0.12, products: [
    price("UWF-A4", "Paper uncoated woodfree, A4 copy B-grade", "UWF A4 copy", "MT", 1000, 0.01, [m("DE", "DAP", "delivered"), m("EU", "DAP", "delivered", undefined, ["EUR"])]),
    price("CFS", "Paper coated freesheet #3 60lb web rolls", "CFS #3", "ST", 1100, 0.01, [m("US", "DAP", "delivered")]),
    price("NEWS", "Newsprint 45g", "Newsprint", "ST", 700, 0.01, [m("US", "DAP", "delivered")]),
    price("NEWS-EU", "Newsprint 45g standard", "Newsprint EU", "MT", 600, 0.01, [m("DE", "DAP", "delivered")]),
    price("CWF", "Paper coated woodfree reels 90 g/m2", "CWF reels", "MT", 950, 0.01, [m("DE", "DAP", "delivered"), m("EU", "DAP", "delivered", undefined, ["EUR"])]),
    price("TISSUE", "Tissue parent reels, virgin", "Tissue reels", "ST", 1500, 0.012, [m("US", "DAP", "delivered")]),
    price("TISSUE-EU", "Tissue parent reels, recycled", "Tissue reels EU", "MT", 1100, 0.012, [m("EU", "DAP", "delivered", undefined, ["EUR"])]),
  ] },
  { sector: "FP", code: "CTB", id: "CONTAINERBOARD", name: "Containerboard", sign: "CTB", volatility: 0.15, products: [
    price("KL", "Containerboard kraftliner brown 175 g/m2", "Kraftliner", "MT", 700, 0.01, [m("DE", "DAP", "delivered"), m("CN", "DAP", "delivered", undefined, ["CNY"])]),
    price("LINER42", "Containerboard linerboard 42-lb unbleached kraft", "Liner 42lb", "ST", 850, 0.008, [m("US", "DAP", "delivered")]),
    price("MEDIUM", "Containerboard semi-chemical medium 26-lb", "Medium 26lb", "ST", 750, 0.008, [m("US", "DAP", "delivered")]),
    price("WTKL", "Containerboard white-top kraftliner 140 g/m2", "WTKL", "MT", 850, 0.01, [m("DE", "DAP", "delivered")]),
    price("FLUT", "Containerboard recycled fluting 100 g/m2", "Fluting", "MT", 480, 0.012, [m("DE", "DAP", "delivered"), m("GB", "DAP", "delivered", undefined, ["GBP"])]),
    price("FBB", "Boxboard folding boxboard GC2", "FBB GC2", "MT", 1200, 0.01, [m("DE", "DAP", "delivered")]),
    price("CRB", "Boxboard coated recycled board 20-pt", "CRB 20pt", "ST", 1000, 0.01, [m("US", "DAP", "delivered")]),
    price("TL", "Containerboard testliner 2, 125 g/m2", "Testliner 2", "MT", 500, 0.012, [m("DE", "DAP", "delivered"), m("GB", "DAP", "delivered", undefined, ["GBP"])]),
  ] },
  { sector: "FP", code: "RCP", id: "RECOVERED-PAPER", name: "Recovered paper", sign: "RCP", volatility: 0.45, products: [
    price("OCC", "Recovered paper OCC (old corrugated containers) #11", "OCC #11", "ST", 110, 0.04, [m("US", "FOB", "fob"), m("US-SE", "FOB", "fob")]),
    price("OCC-EU", "Recovered paper 1.04 corrugated paper and board", "1.04 OCC", "MT", 130, 0.04, [m("DE", "DAP", "delivered"), m("GB", "FOB", "fob", undefined, ["GBP"])]),
    price("MIXED", "Recovered paper mixed paper #54", "Mixed paper", "ST", 60, 0.06, [m("US", "FOB", "fob")]),
  ] },
  { sector: "FP", code: "PEL", id: "WOOD-PELLETS", name: "Wood pellets", sign: "PEL", volatility: 0.25, products: [
    price("IND", "Wood pellets industrial", "Ind pellets", "MT", 200, 0.01, [m("EU-NW", "CIF", "cif", undefined, ["EUR", "USD"]), m("US-SE", "FOB", "fob"), m("JP", "CIF", "cif"), m("KR", "CIF", "cif")]),
    price("ENPLUS", "Wood pellets ENplus A1, bagged", "ENplus A1", "MT", 300, 0.015, [m("DE", "DAP", "delivered"), m("GB", "DAP", "delivered", undefined, ["GBP"])]),
  ] },
  { sector: "FP", code: "WCH", id: "WOOD-CHIPS", name: "Wood chips", sign: "WCH", volatility: 0.15, products: [
    price("HW", "Wood chips hardwood, eucalyptus", "HW chips", "DMT", 190, 0.01, [m("JP", "CIF", "cif"), m("CN", "CIF", "cif", undefined, ["USD"])]),
    price("SW", "Wood chips softwood pulp-grade", "SW chips", "DMT", 150, 0.015, [m("US-WEST", "DAP", "delivered")]),
  ] },
  { sector: "FP", code: "LOG", id: "LOGS", name: "Logs", sign: "LOG", volatility: 0.2, products: [
    price("RAD-A", "Logs radiata pine A-grade", "Radiata A", "M3", 130, 0.015, [m("CN", "CFR", "cfr", undefined, ["USD"]), m("KR", "CFR", "cfr")]),
    price("RAD-K", "Logs radiata pine K-grade", "Radiata K", "M3", 120, 0.015, [m("CN", "CFR", "cfr", undefined, ["USD"])]),
    price("SPRUCE-CN", "Logs spruce/pine export", "Spruce export", "M3", 110, 0.015, [m("CN", "CFR", "cfr", undefined, ["USD"])]),
    price("SPRUCE", "Logs spruce sawlogs 2b/3a", "Spruce logs", "M3", 100, 0.015, [m("DE", "DAP", "delivered")]),
    price("DF-JP", "Logs Douglas fir export", "DF logs", "M3", 150, 0.015, [m("JP", "CFR", "cfr")]),
  ] },
];
