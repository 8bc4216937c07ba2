/**
 * A compact world table for synthetic inventories: real countries (name, ISO 3166-1 alpha-2,
 * naming language, address and postal-code style) and real hotel cities with their region and
 * approximate centre. City weights are rough shares of a global hotel market, not populations.
 */

/** Language used for independent hotel names and street names. */
export type NamingLanguage = 'en' | 'fr' | 'de' | 'es' | 'it' | 'pt' | 'nl';

/** How street addresses are written locally (see `ADDRESS_STYLES` in hotel-name-data). */
export type AddressStyle = 'us' | 'uk' | 'fr' | 'de' | 'nl' | 'es' | 'it' | 'pt' | 'nordic' | 'eu' | 'jp' | 'intl';

export interface Country {
  code: string;
  name: string;
  language: NamingLanguage;
  addressStyle: AddressStyle;
  /** '#' = digit, 'A' = capital letter, anything else literal; '' = no postal codes. */
  postalPattern: string;
}

export interface City {
  name: string;
  region: string;
  country: Country;
  lat: number;
  lon: number;
  /** Relative share of hotels. */
  weight: number;
}

// code|name|language|address style|postal pattern
const COUNTRY_TABLE = `
FR|France|fr|fr|#####
GB|United Kingdom|en|uk|AA# #AA
IE|Ireland|en|uk|A## A#A#
DE|Germany|de|de|#####
NL|Netherlands|nl|nl|#### AA
BE|Belgium|fr|fr|####
LU|Luxembourg|fr|fr|L-####
CH|Switzerland|de|de|####
AT|Austria|de|de|####
IT|Italy|it|it|#####
ES|Spain|es|es|#####
PT|Portugal|pt|pt|####-###
GR|Greece|en|eu|### ##
DK|Denmark|en|nordic|####
SE|Sweden|en|nordic|### ##
NO|Norway|en|nordic|####
FI|Finland|en|nordic|#####
IS|Iceland|en|nordic|###
CZ|Czech Republic|en|eu|### ##
HU|Hungary|en|eu|####
PL|Poland|en|eu|##-###
RO|Romania|en|eu|######
BG|Bulgaria|en|eu|####
HR|Croatia|en|eu|#####
SI|Slovenia|en|eu|####
RS|Serbia|en|eu|#####
SK|Slovakia|en|eu|### ##
EE|Estonia|en|eu|#####
LV|Latvia|en|eu|LV-####
LT|Lithuania|en|eu|LT-#####
TR|Turkey|en|eu|#####
MT|Malta|en|uk|AAA ####
CY|Cyprus|en|eu|####
RU|Russia|en|eu|######
AE|United Arab Emirates|en|intl|
QA|Qatar|en|intl|
SA|Saudi Arabia|en|intl|#####
BH|Bahrain|en|intl|
OM|Oman|en|intl|###
JO|Jordan|en|intl|#####
IL|Israel|en|intl|#######
EG|Egypt|en|intl|#####
MA|Morocco|fr|fr|#####
TN|Tunisia|fr|fr|####
ZA|South Africa|en|uk|####
KE|Kenya|en|intl|#####
TZ|Tanzania|en|intl|#####
MU|Mauritius|en|intl|#####
NG|Nigeria|en|intl|######
GH|Ghana|en|intl|
SN|Senegal|fr|fr|#####
SC|Seychelles|en|intl|
MV|Maldives|en|intl|#####
JP|Japan|en|jp|###-####
CN|China|en|intl|######
HK|Hong Kong|en|intl|
MO|Macao|en|intl|
TW|Taiwan|en|intl|###
KR|South Korea|en|intl|#####
TH|Thailand|en|intl|#####
VN|Vietnam|en|intl|######
MY|Malaysia|en|intl|#####
SG|Singapore|en|intl|######
ID|Indonesia|en|intl|#####
PH|Philippines|en|intl|####
IN|India|en|intl|######
LK|Sri Lanka|en|intl|#####
NP|Nepal|en|intl|#####
AU|Australia|en|us|####
NZ|New Zealand|en|uk|####
FJ|Fiji|en|intl|
US|United States|en|us|#####
CA|Canada|en|us|A#A #A#
MX|Mexico|es|es|#####
DO|Dominican Republic|es|es|#####
CU|Cuba|es|es|#####
JM|Jamaica|en|uk|
BS|Bahamas|en|uk|
PR|Puerto Rico|es|es|#####
AW|Aruba|nl|nl|
BB|Barbados|en|uk|BB#####
BR|Brazil|pt|pt|#####-###
AR|Argentina|es|es|A####AAA
CL|Chile|es|es|#######
PE|Peru|es|es|#####
CO|Colombia|es|es|######
EC|Ecuador|es|es|######
UY|Uruguay|es|es|#####
CR|Costa Rica|es|es|#####
PA|Panama|es|es|####
`;

// name|region|country code|lat|lon|weight
const CITY_TABLE = `
Paris|Île-de-France|FR|48.8566|2.3522|100
Nice|Provence-Alpes-Côte d'Azur|FR|43.7102|7.2620|25
Lyon|Auvergne-Rhône-Alpes|FR|45.7640|4.8357|22
Marseille|Provence-Alpes-Côte d'Azur|FR|43.2965|5.3698|20
Bordeaux|Nouvelle-Aquitaine|FR|44.8378|-0.5792|15
Toulouse|Occitanie|FR|43.6047|1.4442|14
Strasbourg|Grand Est|FR|48.5734|7.7521|10
Cannes|Provence-Alpes-Côte d'Azur|FR|43.5528|7.0174|10
Lille|Hauts-de-France|FR|50.6292|3.0573|9
Nantes|Pays de la Loire|FR|47.2184|-1.5536|8
Montpellier|Occitanie|FR|43.6108|3.8767|8
Annecy|Auvergne-Rhône-Alpes|FR|45.8992|6.1294|5
Chamonix-Mont-Blanc|Auvergne-Rhône-Alpes|FR|45.9237|6.8694|4
Avignon|Provence-Alpes-Côte d'Azur|FR|43.9493|4.8055|5
London|England|GB|51.5074|-0.1278|100
Edinburgh|Scotland|GB|55.9533|-3.1883|22
Manchester|England|GB|53.4808|-2.2426|18
Birmingham|England|GB|52.4862|-1.8904|14
Liverpool|England|GB|53.4084|-2.9916|12
Glasgow|Scotland|GB|55.8642|-4.2518|12
Bristol|England|GB|51.4545|-2.5879|9
Oxford|England|GB|51.7520|-1.2577|6
Cambridge|England|GB|52.2053|0.1218|6
Bath|England|GB|51.3751|-2.3618|5
York|England|GB|53.9600|-1.0873|6
Cardiff|Wales|GB|51.4816|-3.1791|7
Belfast|Northern Ireland|GB|54.5973|-5.9301|7
Brighton|England|GB|50.8225|-0.1372|7
Dublin|Leinster|IE|53.3498|-6.2603|18
Galway|Connacht|IE|53.2707|-9.0568|5
Cork|Munster|IE|51.8985|-8.4756|5
Berlin|Berlin|DE|52.5200|13.4050|45
Munich|Bavaria|DE|48.1351|11.5820|30
Hamburg|Hamburg|DE|53.5511|9.9937|22
Frankfurt am Main|Hesse|DE|50.1109|8.6821|22
Cologne|North Rhine-Westphalia|DE|50.9375|6.9603|16
Düsseldorf|North Rhine-Westphalia|DE|51.2277|6.7735|13
Stuttgart|Baden-Württemberg|DE|48.7758|9.1829|11
Dresden|Saxony|DE|51.0504|13.7373|9
Leipzig|Saxony|DE|51.3397|12.3731|8
Nuremberg|Bavaria|DE|49.4521|11.0767|8
Heidelberg|Baden-Württemberg|DE|49.3988|8.6724|5
Hanover|Lower Saxony|DE|52.3759|9.7320|7
Bremen|Bremen|DE|53.0793|8.8017|6
Amsterdam|North Holland|NL|52.3676|4.9041|35
Rotterdam|South Holland|NL|51.9244|4.4777|10
The Hague|South Holland|NL|52.0705|4.3007|8
Utrecht|Utrecht|NL|52.0907|5.1214|6
Eindhoven|North Brabant|NL|51.4416|5.4697|5
Maastricht|Limburg|NL|50.8514|5.6910|4
Brussels|Brussels-Capital|BE|50.8503|4.3517|18
Bruges|Flanders|BE|51.2093|3.2247|7
Antwerp|Flanders|BE|51.2194|4.4025|8
Ghent|Flanders|BE|51.0543|3.7174|6
Luxembourg|Luxembourg|LU|49.6116|6.1319|4
Zürich|Zürich|CH|47.3769|8.5417|14
Geneva|Geneva|CH|46.2044|6.1432|12
Lucerne|Lucerne|CH|47.0502|8.3093|7
Interlaken|Bern|CH|46.6863|7.8632|5
Zermatt|Valais|CH|46.0207|7.7491|4
Basel|Basel-Stadt|CH|47.5596|7.5886|7
Bern|Bern|CH|46.9480|7.4474|6
Vienna|Vienna|AT|48.2082|16.3738|30
Salzburg|Salzburg|AT|47.8095|13.0550|10
Innsbruck|Tyrol|AT|47.2692|11.4041|7
Graz|Styria|AT|47.0707|15.4395|5
Rome|Lazio|IT|41.9028|12.4964|55
Milan|Lombardy|IT|45.4642|9.1900|35
Venice|Veneto|IT|45.4408|12.3155|25
Florence|Tuscany|IT|43.7696|11.2558|28
Naples|Campania|IT|40.8518|14.2681|16
Turin|Piedmont|IT|45.0703|7.6869|10
Bologna|Emilia-Romagna|IT|44.4949|11.3426|10
Verona|Veneto|IT|45.4384|10.9916|8
Palermo|Sicily|IT|38.1157|13.3615|8
Sorrento|Campania|IT|40.6263|14.3758|6
Genoa|Liguria|IT|44.4056|8.9463|7
Pisa|Tuscany|IT|43.7228|10.4017|5
Bari|Apulia|IT|41.1171|16.8719|6
Catania|Sicily|IT|37.5079|15.0830|6
Como|Lombardy|IT|45.8081|9.0852|5
Taormina|Sicily|IT|37.8516|15.2853|4
Rimini|Emilia-Romagna|IT|44.0678|12.5695|9
Madrid|Community of Madrid|ES|40.4168|-3.7038|40
Barcelona|Catalonia|ES|41.3874|2.1686|45
Seville|Andalusia|ES|37.3891|-5.9845|15
Valencia|Valencian Community|ES|39.4699|-0.3763|14
Málaga|Andalusia|ES|36.7213|-4.4214|12
Palma|Balearic Islands|ES|39.5696|2.6502|18
Granada|Andalusia|ES|37.1773|-3.5986|9
Benidorm|Valencian Community|ES|38.5411|-0.1225|12
Marbella|Andalusia|ES|36.5101|-4.8825|9
Bilbao|Basque Country|ES|43.2630|-2.9350|7
San Sebastián|Basque Country|ES|43.3183|-1.9812|6
Ibiza|Balearic Islands|ES|38.9067|1.4206|8
Las Palmas de Gran Canaria|Canary Islands|ES|28.1235|-15.4363|9
Santa Cruz de Tenerife|Canary Islands|ES|28.4636|-16.2518|8
Córdoba|Andalusia|ES|37.8882|-4.7794|5
Alicante|Valencian Community|ES|38.3452|-0.4810|8
Salamanca|Castile and León|ES|40.9701|-5.6635|4
Lisbon|Lisbon|PT|38.7223|-9.1393|25
Porto|Porto|PT|41.1579|-8.6291|14
Funchal|Madeira|PT|32.6669|-16.9241|7
Albufeira|Faro|PT|37.0891|-8.2479|8
Faro|Faro|PT|37.0194|-7.9304|4
Athens|Attica|GR|37.9838|23.7275|20
Thessaloniki|Central Macedonia|GR|40.6401|22.9444|8
Heraklion|Crete|GR|35.3387|25.1442|8
Fira|South Aegean|GR|36.4167|25.4333|6
Rhodes|South Aegean|GR|36.4341|28.2176|7
Mykonos|South Aegean|GR|37.4467|25.3289|5
Corfu|Ionian Islands|GR|39.6243|19.9217|6
Copenhagen|Capital Region of Denmark|DK|55.6761|12.5683|16
Stockholm|Stockholm County|SE|59.3293|18.0686|16
Gothenburg|Västra Götaland|SE|57.7089|11.9746|7
Oslo|Oslo|NO|59.9139|10.7522|12
Bergen|Vestland|NO|60.3913|5.3221|5
Helsinki|Uusimaa|FI|60.1699|24.9384|10
Reykjavík|Capital Region|IS|64.1466|-21.9426|6
Prague|Prague|CZ|50.0755|14.4378|28
Budapest|Budapest|HU|47.4979|19.0402|22
Warsaw|Masovian|PL|52.2297|21.0122|14
Kraków|Lesser Poland|PL|50.0647|19.9450|14
Gdańsk|Pomeranian|PL|54.3520|18.6466|6
Wrocław|Lower Silesian|PL|51.1079|17.0385|6
Bucharest|Bucharest|RO|44.4268|26.1025|9
Sofia|Sofia City|BG|42.6977|23.3219|7
Zagreb|City of Zagreb|HR|45.8150|15.9819|6
Dubrovnik|Dubrovnik-Neretva|HR|42.6507|18.0944|7
Split|Split-Dalmatia|HR|43.5081|16.4402|7
Ljubljana|Ljubljana|SI|46.0569|14.5058|5
Belgrade|Belgrade|RS|44.7866|20.4489|6
Bratislava|Bratislava|SK|48.1486|17.1077|5
Tallinn|Harju|EE|59.4370|24.7536|6
Riga|Riga|LV|56.9496|24.1052|6
Vilnius|Vilnius County|LT|54.6872|25.2797|5
Istanbul|Istanbul|TR|41.0082|28.9784|45
Antalya|Antalya|TR|36.8969|30.7133|25
Bodrum|Muğla|TR|37.0344|27.4305|7
Izmir|Izmir|TR|38.4237|27.1428|6
Göreme|Nevşehir|TR|38.6431|34.8289|3
Valletta|South Eastern Region|MT|35.8989|14.5146|6
Limassol|Limassol|CY|34.7071|33.0226|5
Paphos|Paphos|CY|34.7720|32.4297|5
Moscow|Moscow|RU|55.7558|37.6173|20
Saint Petersburg|Saint Petersburg|RU|59.9311|30.3609|14
Dubai|Dubai|AE|25.2048|55.2708|45
Abu Dhabi|Abu Dhabi|AE|24.4539|54.3773|14
Doha|Doha|QA|25.2854|51.5310|10
Riyadh|Riyadh Province|SA|24.7136|46.6753|10
Jeddah|Makkah Province|SA|21.4858|39.1925|9
Mecca|Makkah Province|SA|21.3891|39.8579|12
Manama|Capital Governorate|BH|26.2285|50.5860|4
Muscat|Muscat|OM|23.5880|58.3829|5
Amman|Amman|JO|31.9454|35.9284|5
Tel Aviv|Tel Aviv District|IL|32.0853|34.7818|8
Jerusalem|Jerusalem District|IL|31.7683|35.2137|7
Cairo|Cairo|EG|30.0444|31.2357|14
Hurghada|Red Sea|EG|27.2579|33.8116|10
Sharm El Sheikh|South Sinai|EG|27.9158|34.3300|10
Luxor|Luxor|EG|25.6872|32.6396|4
Marrakesh|Marrakesh-Safi|MA|31.6295|-7.9811|14
Casablanca|Casablanca-Settat|MA|33.5731|-7.5898|7
Agadir|Souss-Massa|MA|30.4278|-9.5981|6
Fez|Fès-Meknès|MA|34.0181|-5.0078|5
Tunis|Tunis|TN|36.8065|10.1815|4
Sousse|Sousse|TN|35.8256|10.6360|5
Cape Town|Western Cape|ZA|-33.9249|18.4241|14
Johannesburg|Gauteng|ZA|-26.2041|28.0473|10
Durban|KwaZulu-Natal|ZA|-29.8587|31.0218|6
Nairobi|Nairobi County|KE|-1.2921|36.8219|6
Mombasa|Mombasa County|KE|-4.0435|39.6682|4
Zanzibar City|Zanzibar Urban/West|TZ|-6.1659|39.2026|4
Grand Baie|Rivière du Rempart|MU|-20.0133|57.5806|4
Lagos|Lagos|NG|6.5244|3.3792|6
Accra|Greater Accra|GH|5.6037|-0.1870|4
Dakar|Dakar|SN|14.7167|-17.4677|3
Victoria|Mahé|SC|-4.6191|55.4513|3
Malé|Kaafu|MV|4.1755|73.5093|6
Tokyo|Tokyo|JP|35.6762|139.6503|60
Osaka|Osaka|JP|34.6937|135.5023|30
Kyoto|Kyoto|JP|35.0116|135.7681|22
Sapporo|Hokkaido|JP|43.0618|141.3545|10
Fukuoka|Fukuoka|JP|33.5904|130.4017|10
Yokohama|Kanagawa|JP|35.4437|139.6380|9
Nagoya|Aichi|JP|35.1815|136.9066|9
Naha|Okinawa|JP|26.2124|127.6809|8
Hiroshima|Hiroshima|JP|34.3853|132.4553|6
Beijing|Beijing|CN|39.9042|116.4074|35
Shanghai|Shanghai|CN|31.2304|121.4737|40
Guangzhou|Guangdong|CN|23.1291|113.2644|18
Shenzhen|Guangdong|CN|22.5431|114.0579|16
Chengdu|Sichuan|CN|30.5728|104.0668|14
Hangzhou|Zhejiang|CN|30.2741|120.1551|12
Xi'an|Shaanxi|CN|34.3416|108.9398|10
Sanya|Hainan|CN|18.2528|109.5119|8
Guilin|Guangxi|CN|25.2736|110.2900|5
Chongqing|Chongqing|CN|29.4316|106.9123|10
Suzhou|Jiangsu|CN|31.2989|120.5853|7
Hong Kong|Hong Kong|HK|22.3193|114.1694|25
Macau|Macau|MO|22.1987|113.5439|8
Taipei|Taipei|TW|25.0330|121.5654|14
Seoul|Seoul|KR|37.5665|126.9780|30
Busan|Busan|KR|35.1796|129.0756|10
Jeju City|Jeju|KR|33.4996|126.5312|8
Bangkok|Bangkok|TH|13.7563|100.5018|50
Phuket|Phuket|TH|7.8804|98.3923|25
Pattaya|Chonburi|TH|12.9236|100.8825|16
Chiang Mai|Chiang Mai|TH|18.7883|98.9853|12
Krabi|Krabi|TH|8.0863|98.9063|8
Ko Samui|Surat Thani|TH|9.5120|100.0136|8
Hua Hin|Prachuap Khiri Khan|TH|12.5684|99.9577|5
Ho Chi Minh City|Ho Chi Minh City|VN|10.8231|106.6297|16
Hanoi|Hanoi|VN|21.0278|105.8342|16
Da Nang|Da Nang|VN|16.0544|108.2022|10
Nha Trang|Khánh Hòa|VN|12.2388|109.1967|8
Hoi An|Quảng Nam|VN|15.8801|108.3380|6
Kuala Lumpur|Federal Territory of Kuala Lumpur|MY|3.1390|101.6869|20
George Town|Penang|MY|5.4141|100.3288|8
Kota Kinabalu|Sabah|MY|5.9804|116.0735|5
Langkawi|Kedah|MY|6.3500|99.8000|5
Singapore|Singapore|SG|1.3521|103.8198|25
Denpasar|Bali|ID|-8.6705|115.2126|12
Ubud|Bali|ID|-8.5069|115.2625|8
Kuta|Bali|ID|-8.7180|115.1690|10
Jakarta|Jakarta|ID|-6.2088|106.8456|14
Yogyakarta|Special Region of Yogyakarta|ID|-7.7956|110.3695|6
Manila|Metro Manila|PH|14.5995|120.9842|12
Cebu City|Central Visayas|PH|10.3157|123.8854|7
Malay|Aklan|PH|11.9674|121.9248|5
Mumbai|Maharashtra|IN|19.0760|72.8777|18
New Delhi|Delhi|IN|28.6139|77.2090|20
Bengaluru|Karnataka|IN|12.9716|77.5946|12
Panaji|Goa|IN|15.4909|73.8278|10
Jaipur|Rajasthan|IN|26.9124|75.7873|9
Chennai|Tamil Nadu|IN|13.0827|80.2707|9
Kolkata|West Bengal|IN|22.5726|88.3639|8
Hyderabad|Telangana|IN|17.3850|78.4867|8
Agra|Uttar Pradesh|IN|27.1767|78.0081|5
Kochi|Kerala|IN|9.9312|76.2673|5
Udaipur|Rajasthan|IN|24.5854|73.7125|4
Colombo|Western Province|LK|6.9271|79.8612|6
Kathmandu|Bagmati|NP|27.7172|85.3240|6
Sydney|New South Wales|AU|-33.8688|151.2093|30
Melbourne|Victoria|AU|-37.8136|144.9631|25
Brisbane|Queensland|AU|-27.4698|153.0251|12
Gold Coast|Queensland|AU|-28.0167|153.4000|14
Perth|Western Australia|AU|-31.9505|115.8605|10
Adelaide|South Australia|AU|-34.9285|138.6007|7
Cairns|Queensland|AU|-16.9186|145.7781|7
Hobart|Tasmania|AU|-42.8821|147.3272|4
Darwin|Northern Territory|AU|-12.4634|130.8456|3
Auckland|Auckland|NZ|-36.8485|174.7633|10
Queenstown|Otago|NZ|-45.0312|168.6626|6
Wellington|Wellington|NZ|-41.2866|174.7756|5
Christchurch|Canterbury|NZ|-43.5321|172.6362|5
Nadi|Western Division|FJ|-17.7765|177.4356|3
New York|New York|US|40.7128|-74.0060|70
Las Vegas|Nevada|US|36.1699|-115.1398|40
Orlando|Florida|US|28.5383|-81.3792|40
Los Angeles|California|US|34.0522|-118.2437|40
Miami|Florida|US|25.7617|-80.1918|30
San Francisco|California|US|37.7749|-122.4194|28
Chicago|Illinois|US|41.8781|-87.6298|28
Washington|District of Columbia|US|38.9072|-77.0369|22
Boston|Massachusetts|US|42.3601|-71.0589|18
San Diego|California|US|32.7157|-117.1611|18
Honolulu|Hawaii|US|21.3069|-157.8583|18
New Orleans|Louisiana|US|29.9511|-90.0715|15
Seattle|Washington|US|47.6062|-122.3321|14
Atlanta|Georgia|US|33.7490|-84.3880|16
Houston|Texas|US|29.7604|-95.3698|16
Dallas|Texas|US|32.7767|-96.7970|15
Austin|Texas|US|30.2672|-97.7431|11
San Antonio|Texas|US|29.4241|-98.4936|11
Nashville|Tennessee|US|36.1627|-86.7816|12
Denver|Colorado|US|39.7392|-104.9903|12
Phoenix|Arizona|US|33.4484|-112.0740|12
Philadelphia|Pennsylvania|US|39.9526|-75.1652|12
Myrtle Beach|South Carolina|US|33.6891|-78.8867|9
Charleston|South Carolina|US|32.7765|-79.9311|7
Savannah|Georgia|US|32.0809|-81.0912|6
Miami Beach|Florida|US|25.7907|-80.1300|12
Key West|Florida|US|24.5551|-81.7800|5
Tampa|Florida|US|27.9506|-82.4572|9
Portland|Oregon|US|45.5152|-122.6784|8
Portland|Maine|US|43.6591|-70.2568|3
Paris|Texas|US|33.6609|-95.5555|1
Salt Lake City|Utah|US|40.7608|-111.8910|6
Anaheim|California|US|33.8366|-117.9143|9
Palm Springs|California|US|33.8303|-116.5453|5
Minneapolis|Minnesota|US|44.9778|-93.2650|7
Detroit|Michigan|US|42.3314|-83.0458|6
Pittsburgh|Pennsylvania|US|40.4406|-79.9959|5
St. Louis|Missouri|US|38.6270|-90.1994|6
Charlotte|North Carolina|US|35.2271|-80.8431|7
Sedona|Arizona|US|34.8697|-111.7610|3
Toronto|Ontario|CA|43.6532|-79.3832|18
Vancouver|British Columbia|CA|49.2827|-123.1207|16
Montréal|Quebec|CA|45.5017|-73.5673|15
Quebec City|Quebec|CA|46.8139|-71.2080|6
Calgary|Alberta|CA|51.0447|-114.0719|6
Banff|Alberta|CA|51.1784|-115.5708|4
Ottawa|Ontario|CA|45.4215|-75.6972|6
Niagara Falls|Ontario|CA|43.0896|-79.0849|6
Whistler|British Columbia|CA|50.1163|-122.9574|4
Cancún|Quintana Roo|MX|21.1619|-86.8515|22
Mexico City|Mexico City|MX|19.4326|-99.1332|20
Playa del Carmen|Quintana Roo|MX|20.6296|-87.0739|12
Puerto Vallarta|Jalisco|MX|20.6534|-105.2253|9
Cabo San Lucas|Baja California Sur|MX|22.8905|-109.9167|8
Guadalajara|Jalisco|MX|20.6597|-103.3496|7
Tulum|Quintana Roo|MX|20.2114|-87.4654|6
Oaxaca de Juárez|Oaxaca|MX|17.0732|-96.7266|4
Punta Cana|La Altagracia|DO|18.5820|-68.4055|12
Havana|Havana|CU|23.1136|-82.3666|7
Varadero|Matanzas|CU|23.1394|-81.2861|6
Montego Bay|Saint James|JM|18.4762|-77.8939|6
Nassau|New Providence|BS|25.0443|-77.3504|5
San Juan|San Juan|PR|18.4655|-66.1057|7
Oranjestad|Aruba|AW|12.5092|-70.0086|4
Bridgetown|Saint Michael|BB|13.0975|-59.6167|3
São Paulo|São Paulo|BR|-23.5505|-46.6333|20
Rio de Janeiro|Rio de Janeiro|BR|-22.9068|-43.1729|20
Salvador|Bahia|BR|-12.9777|-38.5016|8
Florianópolis|Santa Catarina|BR|-27.5954|-48.5480|7
Foz do Iguaçu|Paraná|BR|-25.5163|-54.5854|5
Brasília|Federal District|BR|-15.7939|-47.8828|6
Fortaleza|Ceará|BR|-3.7319|-38.5267|6
Recife|Pernambuco|BR|-8.0476|-34.8770|5
Gramado|Rio Grande do Sul|BR|-29.3788|-50.8739|4
Buenos Aires|Buenos Aires|AR|-34.6037|-58.3816|16
Mendoza|Mendoza|AR|-32.8895|-68.8458|5
San Carlos de Bariloche|Río Negro|AR|-41.1335|-71.3103|5
Santiago|Santiago Metropolitan|CL|-33.4489|-70.6693|9
Lima|Lima|PE|-12.0464|-77.0428|9
Cusco|Cusco|PE|-13.5320|-71.9675|6
Bogotá|Bogotá|CO|4.7110|-74.0721|9
Cartagena|Bolívar|CO|10.3910|-75.4794|8
Medellín|Antioquia|CO|6.2476|-75.5658|7
Quito|Pichincha|EC|-0.1807|-78.4678|5
Montevideo|Montevideo|UY|-34.9011|-56.1645|4
Punta del Este|Maldonado|UY|-34.9620|-54.9510|3
San José|San José|CR|9.9281|-84.0907|5
Panama City|Panamá|PA|8.9824|-79.5199|5
`;

function tableRows(table: string): string[][] {
  return table
    .trim()
    .split('\n')
    .map((line) => line.split('|'));
}

export const COUNTRIES: readonly Country[] = tableRows(COUNTRY_TABLE).map(([code, name, language, addressStyle, postalPattern]) => ({
  code: code as string,
  name: name as string,
  language: language as NamingLanguage,
  addressStyle: addressStyle as AddressStyle,
  postalPattern: postalPattern ?? '',
}));

const COUNTRY_BY_CODE = new Map(COUNTRIES.map((country) => [country.code, country]));

export const CITIES: readonly City[] = tableRows(CITY_TABLE).map(([name, region, code, lat, lon, weight]) => {
  const country = COUNTRY_BY_CODE.get(code as string);
  if (!country) throw new Error(`world-data: city ${name} has unknown country ${code}`);
  return {
    name: name as string,
    region: region as string,
    country,
    lat: Number(lat),
    lon: Number(lon),
    weight: Number(weight),
  };
});
